/*
** utf8ext.c - the entry points of utf8ext and the registration of every
** function and module; nothing else. The functions live in the glue units
** (utf8ext_glue.h lists them); the UTF-8 engine lives in core/ and knows
** nothing of SQLite; this file knows nothing of bit tricks.
**
** utf8ext checks, decodes and repairs UTF-8 exactly as RFC 3629 and the
** Unicode Standard (3.9) define it. SQLite never checks that TEXT is UTF-8;
** with this extension loaded:
**
**     .load ./utf8ext
**     SELECT utf8_valid(x'C080');                       -- 0 (overlong NUL)
**     SELECT utf8_fix(x'61F18080E180C262806380BF64');   -- a���b�c��d
**     SELECT * FROM utf8_codepoints('h€');              -- one row per unit
**     CREATE TABLE t(x TEXT CHECK (utf8_valid(x)));     -- bad text stays out
**
** WHAT EVERY FUNCTION READS
**
** A BLOB's bytes (read as a blob, never through a text conversion), TEXT's
** stored bytes, a number's text form. NULL gives NULL. The length comes
** from sqlite3_value_bytes(), so an embedded NUL is an ordinary character.
**
** THE FUNCTIONS
**
**     utf8_valid(X)            1 if X is well-formed UTF-8, else 0
**     utf8_fix(X [,R [,RULE]]) X with each ill-formed unit replaced by R
**                              (default U+FFFD); RULE 'subpart', 'run', 'byte'
**     utf8_length(X)           number of units (characters + ill-formed units)
**     utf8_error_offset(X)     byte offset of the first ill-formed unit
**     utf8_error(X)            "overlong at byte 3: C0", or NULL
**     utf8_check(X)            X unchanged, or an error carrying utf8_error(X)
**     utf8_encode(C, ...)      the text of code points C, strictly checked
**     utf8_recode(X, ENC)      ill-formed units decoded as ENC instead
**     utf8ext_version()        this extension's version
**     utf8ext_impl()           the validator implementation in use
**     utf8_codepoints(X)       table: one row per unit (utf8ext_codepoints.c)
**     utf8_audit(TABLE [,SCHEMA])  table: every ill-formed stored value
**     utf8_audit_summary(TABLE [,SCHEMA])  table: one row per column
**                              (both utf8ext_audit.c)
**     utf8_repair(TABLE [,METHOD [,SCHEMA]])  repair (ill-formed text, or
**                              mojibake), logging originals
**     utf8_undo([TABLE [,SCHEMA]])  put the logged originals back
**                              (both utf8ext_repair.c)
**     utf8_guard(TABLE [,SCHEMA])  triggers that refuse ill-formed text
**                              on INSERT and UPDATE of TABLE
**     utf8_unguard(TABLE [,SCHEMA])  drop them (both utf8ext_guard.c)
**
** Errors are SQL errors whose message starts with the function's name. An
** option (R, RULE, ENC) that is not valid is an error even when X is NULL
** or well-formed; a NULL option gives NULL.
*/
#include "utf8ext_glue.h"
#include "utf8ext.h"

SQLITE_EXTENSION_INIT1

/*
** The module is built with hidden visibility: only the entry points are
** exported, so the core's names never clash with a host program's.
*/
#if defined(_WIN32)
# define UTF8EXT_EXPORT __declspec(dllexport)
#elif defined(__GNUC__)
# define UTF8EXT_EXPORT __attribute__((visibility("default")))
#else
# define UTF8EXT_EXPORT
#endif

/*
** Register every function and module on db, stopping at the first failure.
*/
static int register_all(sqlite3 *db){
  int rc = utf8ext_register_scalars(db);
  if( rc==SQLITE_OK ) rc = utf8ext_register_codepoints(db);
  if( rc==SQLITE_OK ) rc = utf8ext_register_audit(db);
  if( rc==SQLITE_OK ) rc = utf8ext_register_repair(db);
  if( rc==SQLITE_OK ) rc = utf8ext_register_guess(db);
  if( rc==SQLITE_OK ) rc = utf8ext_register_guard(db);
  return rc;
}

/*
** The entry points. ".load ./utf8ext" looks for sqlite3_extension_init,
** then for a name made of the file name's letters only: utf8ext.so gives
** sqlite3_utfext_init. sqlite3_utf8ext_init is the name for programs
** that link the extension statically (sqlite3_auto_extension).
*/
/*
** Set the API pointer every glue file calls SQLite through. The usual
** SQLITE_EXTENSION_INIT2 writes it on every load, so a load on one
** connection races with calls on another (ThreadSanitizer says so).
** Here it is written once, under a static SQLite mutex; later loads only
** read it there, which orders them after that one write.
*/
static void set_api_once(const sqlite3_api_routines *pApi){
#ifndef SQLITE_CORE
  /* A SQLite built with SQLITE_THREADSAFE=0 has no mutex routines in its
  ** API table (NULL pointers); it cannot run two loads at once either. */
  sqlite3_mutex *m = pApi->mutex_alloc ? pApi->mutex_alloc(SQLITE_MUTEX_STATIC_APP1) : 0;
  if( m ) pApi->mutex_enter(m);
  if( sqlite3_api!=pApi ) SQLITE_EXTENSION_INIT2(pApi);
  if( m ) pApi->mutex_leave(m);
#else
  (void)pApi;
#endif
}

UTF8EXT_EXPORT
int sqlite3_utf8ext_init(sqlite3 *db, char **pzErrMsg,
                         const sqlite3_api_routines *pApi){
  int rc;
  set_api_once(pApi);
  rc = register_all(db);
  if( rc!=SQLITE_OK && pzErrMsg && *pzErrMsg==0 ){
    *pzErrMsg = sqlite3_mprintf("utf8ext: registration failed: %s",
                                sqlite3_errstr(rc));
  }
  return rc;
}

UTF8EXT_EXPORT
int sqlite3_utfext_init(sqlite3 *db, char **pzErrMsg,
                        const sqlite3_api_routines *pApi){
  return sqlite3_utf8ext_init(db, pzErrMsg, pApi);
}
