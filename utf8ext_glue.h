/*
** utf8ext_glue.h - what the SQLite glue units share. Only glue includes
** this; core/ knows nothing of SQLite.
**
** The rooms, from the entry point down:
**
**     utf8ext.c             entry points and registration, nothing else
**     utf8ext_scalars.c     the scalar functions (utf8_valid, utf8_fix, ...)
**     utf8ext_codepoints.c  utf8_codepoints(X), one row per unit
**     utf8ext_scan.c        the table scanner: which tables, their columns
**                           and keys, one SELECT per table; writes nothing
**     utf8ext_audit.c       utf8_audit and utf8_audit_summary, read-only
**                           users of the scanner
**     utf8ext_spill.c       a scratch store in a private temporary
**                           database: utf8_audit's findings past its
**                           memory budget
**     utf8ext_job.c         one call of utf8_repair or utf8_undo: its
**                           transaction, the log, keys and fingerprints
**                           (utf8ext_job.h, shared by the two below)
**     utf8ext_repair.c      utf8_repair: the one unit that writes users'
**                           tables
**     utf8ext_undo.c        utf8_undo: puts the logged originals back
**     utf8ext_guard.c       utf8_guard and utf8_unguard: triggers that
**                           refuse ill-formed text; tells the job unit
**                           which triggers are its own
**     utf8ext_value.c       reading values, SQL literals, hex, escaped
**                           names, option names: the helpers of all above
*/
#ifndef UTF8EXT_GLUE_H
#define UTF8EXT_GLUE_H

/*
** SQLITE_EXTENSION_INIT1 defines a global named sqlite3_api. Every loadable
** extension has one, so two extensions linked statically into one program
** would clash: ours gets a name of its own.
*/
#define sqlite3_api utf8ext_sqlite3_api
#include <sqlite3ext.h>
SQLITE_EXTENSION_INIT3

#include "utf8.h"
#include "mojibake.h"
#include "charsets.h"

/*
** SQLITE_INNOCUOUS arrived in SQLite 3.31, SQLITE_DIRECTONLY in 3.30 and
** the sqlite3_vtab_config() options later: older headers build without them.
*/
#ifndef SQLITE_INNOCUOUS
# define SQLITE_INNOCUOUS 0
#endif
#ifndef SQLITE_DIRECTONLY
# define SQLITE_DIRECTONLY 0
#endif

/* ---- utf8ext_value.c ---------------------------------------------------- */

/*
** The bytes of v as every function judges them: a BLOB's own bytes, the
** stored bytes of TEXT, the text form of a number. Returns 1 and sets *pz
** and *pn, or 0 for NULL. On an allocation failure it returns -1.
** An empty value gives a non-NULL pointer and length 0.
*/
int utf8ext_value_bytes(sqlite3_value *v, const unsigned char **pz,
                        sqlite3_int64 *pn);

/*
** The bytes of TEXT value v exactly as the database stores them: UTF-8 in
** a UTF-8 database, UTF-16 in the database's byte order in a UTF-16 one
** (where SQLite's conversion to UTF-8 would turn an unpaired surrogate
** into other bytes). eTextEnc is SQLITE_UTF8, SQLITE_UTF16LE or _UTF16BE.
** Returns 0 with *pz NULL after an allocation failure.
*/
int utf8ext_stored_text(sqlite3_value *v, int eTextEnc,
                        const unsigned char **pz, sqlite3_int64 *pn);

/*
** True if UTF-16 text z[0..n) in byte order eTextEnc is well-formed: an
** even length, every surrogate in a pair. Only then is SQLite's conversion
** to UTF-8 exact (it joins an unpaired high surrogate with whatever unit
** follows), so only then may a repair computed on the UTF-8 be written.
*/
int utf8ext_utf16_well_formed(const unsigned char *z, sqlite3_int64 n,
                              int eTextEnc);

/*
** utf8_unmojibake(X) of z[0..n), for the SQL functions, utf8_repair's
** 'mojibake' method and the mojibake count of utf8_audit_summary: UTF-16
** or UTF-32 without a byte-order mark decoded whole (core/widetext.c),
** when what it decodes to is settled; else the misreadings undone by
** core/mojibake.c (well-formed UTF-8 only). Returns the number of
** misreadings undone (1 to UTF8_MOJI_MAX_DEPTH) when it changes, with the
** result in *paBuf, *pnOut bytes, and the chain in pChain (when not
** NULL); 0 when it does not; SQLITE_NOMEM negated (-7) when out of
** memory. *paBuf (*pnBuf bytes allocated, NULL and 0 at first) is scratch
** that grows as needed and is reused across calls; the caller frees it
** with sqlite3_free(). Text that cannot be mojibake costs a memchr for a
** zero byte and utf8_moji_possible(), no allocation.
*/
int utf8ext_unmojibake_buf(const unsigned char *z, sqlite3_int64 n,
                           unsigned char **paBuf, sqlite3_int64 *pnBuf,
                           sqlite3_int64 *pnOut, utf8_moji_charset *pChain);

/* The text encoding of the database (PRAGMA encoding) into *peTextEnc. */
int utf8ext_text_encoding(sqlite3 *db, int *peTextEnc);

/* Append z[0..n) to p as upper-case hexadecimal digits. */
void utf8ext_append_hex(sqlite3_str *p, const unsigned char *z,
                        sqlite3_int64 n);

/*
** Append v to p as an SQL literal that compares equal to it (for people to
** read and paste). Integers and blobs as quote() writes them, TEXT quoted,
** or CAST(X'...' AS TEXT) when it is not well-formed or holds a NUL (in a
** UTF-16 database the hex is of the stored UTF-16). A REAL with all 17
** digits, correctly rounded by the C library, when db's SQLite parses
** that back to the same double (it runs "SELECT <literal>" on db to
** know); else, as SQLite 3.40's parser is not correctly rounded for tiny
** numbers, an expression it computes exactly, such as
** (1.2345678901234567e-290/4611686018427387904) (2^62, an integer: the
** division by a power of two is exact); an infinity as 9e999 or -9e999.
** db NULL skips the check (the 17 digits are written).
*/
void utf8ext_append_literal(sqlite3_str *p, sqlite3_value *v, int eTextEnc,
                            sqlite3 *db);

/*
** Append the name z[0..n) to p for an error message: its well-formed
** characters as they are, each byte of an ill-formed unit as \xHH, so the
** message is well-formed UTF-8 whatever the name's bytes.
*/
void utf8ext_append_escaped(sqlite3_str *p, const unsigned char *z,
                            sqlite3_int64 n);

/*
** Error messages and SQLITE_LIMIT_LENGTH. SQLite drops an error message
** that is not shorter than the connection's SQLITE_LIMIT_LENGTH (the
** statement then fails with no text, or with "string or blob too big"),
** so every message the extension sets goes through one of these, which
** cut it to fit. Each message starts with the function's name
** ("utf8_fix: ..."), and so the name survives any limit above its length.
**
** utf8ext_message_fit(db, z) cuts the NUL-terminated z in place to at
** most SQLITE_LIMIT_LENGTH-1 bytes: at a character boundary (z is
** well-formed UTF-8, as utf8ext_append_escaped makes names), ending in
** "..." when the cut leaves room for it. Returns z; z may be NULL. Use it
** on a message for pVtab->zErrMsg or *pzErr, which SQLite copies under
** the same limit.
**
** utf8ext_result_error(ctx, zMsg, rc) sets zMsg (not freed; copied),
** cut as above, as ctx's error with result code rc: SQLITE_ERROR (or 0)
** leaves SQLite's default, SQLITE_NOMEM reports out of memory without
** zMsg, any other error code is set with sqlite3_result_error_code after the
** text. zMsg NULL is out of memory. This is the one way every unit sets a
** function's error (utf8_repair and utf8_undo included).
**
** utf8ext_result_errorf(ctx, zFormat, ...) formats the message and sets
** it as utf8ext_result_error(ctx, zMsg, SQLITE_ERROR) does.
*/
char *utf8ext_message_fit(sqlite3 *db, char *z);
void utf8ext_result_error(sqlite3_context *ctx, const char *zMsg, int rc);
void utf8ext_result_errorf(sqlite3_context *ctx, const char *zFormat, ...);

/*
** Look up the encoding name z[0..n) (case-insensitive, with the usual
** aliases such as 'windows-1252' and 'iso-8859-1'). Returns 1 and sets
** *pEnc, or 0 for a name it does not know (a NUL byte included).
*/
int utf8ext_encoding_named(const char *z, sqlite3_int64 n,
                           utf8_recode_enc *pEnc);

/*
** The legacy charsets utf8_recode also accepts (core/charsets.h): the
** charset label z[0..n) names, as utf8_charset_lookup() reads it, or -1.
** Tried after utf8ext_encoding_named(), so 'latin1' and 'cp1252' keep
** meaning what they always meant there. A caller decodes with
** utf8_charset_recode() ('units') or utf8_charset_decode() ('whole').
*/
int utf8ext_charset_named(const char *z, sqlite3_int64 n);

/* The legacy charsets' canonical names, quoted and comma-separated, into
** buf (size bytes, cut short rather than overflow), for messages. */
void utf8ext_charset_names(char *buf, size_t size);

/* The accepted encoding names, for error messages. */
#define UTF8EXT_ENCODING_NAMES "'cp1252' (or 'windows-1252'), 'latin1' " \
  "(or 'latin-1', 'iso-8859-1'), 'cesu8', 'mutf8', 'utf-8'"

/* ---- utf8ext_guard.c ---------------------------------------------------- */

/*
** Whether a trigger is one utf8_guard made: UTF8EXT_GUARD_INSERT or
** UTF8EXT_GUARD_UPDATE when trigger zName, whose table (sqlite_schema's
** tbl_name) is zTable and whose CREATE statement as sqlite_schema keeps
** it is zSql, is named and written exactly as utf8_guard names and
** writes that kind of trigger for that table and the columns it checks;
** 0 when not (any argument NULL included); -SQLITE_NOMEM when out of
** memory. utf8_repair lets the update trigger be; utf8_undo refuses it.
*/
#define UTF8EXT_GUARD_INSERT 1
#define UTF8EXT_GUARD_UPDATE 2
int utf8ext_guard_trigger_kind(const char *zTable, const char *zName,
                               const char *zSql);

/* ---- registration of each unit ----------------------------------------- */

int utf8ext_register_scalars(sqlite3 *db);
int utf8ext_register_codepoints(sqlite3 *db);
int utf8ext_register_audit(sqlite3 *db);
int utf8ext_register_repair(sqlite3 *db);
int utf8ext_register_guess(sqlite3 *db);
int utf8ext_register_guard(sqlite3 *db);

#endif /* UTF8EXT_GLUE_H */
