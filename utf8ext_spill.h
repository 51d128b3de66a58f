/*
** utf8ext_spill.h - a scratch store for rows that do not fit in memory
** (utf8ext_spill.c): blobs written under a key of three integers, read
** back once in key order. utf8_audit moves its findings here when they
** pass its memory budget (utf8ext_audit.c, HOW IT WORKS).
**
** The store is a private temporary database on a connection of its own
** (sqlite3_open_v2 of ""), never the user's: the user's transaction,
** interrupt flag, progress handler, busy handler and limits are neither
** used nor touched. SQLite keeps a temporary database in its page cache
** and writes it to a file that is deleted on close, so memory stays at
** the cache's size whatever the number of rows. (A SQLite built with
** SQLITE_TEMP_STORE=3 keeps temporary databases in memory; the store is
** then bounded only by the rows written.)
*/
#ifndef UTF8EXT_SPILL_H
#define UTF8EXT_SPILL_H

#include "utf8ext_glue.h"

typedef struct utf8ext_spill utf8ext_spill;

/*
** Open an empty store into *pp. Every function here returns SQLITE_OK, or
** SQLITE_NOMEM (nothing in *pzErr), or another error code with SQLite's
** message in *pzErr (sqlite3_malloc'd; the caller frees it).
*/
int utf8ext_spill_open(utf8ext_spill **pp, char **pzErr);

/* Store blob p[0..n) under key (k1, k2, k3); a key is written once. */
int utf8ext_spill_put(utf8ext_spill *p, sqlite3_int64 k1, sqlite3_int64 k2,
                      sqlite3_int64 k3, const void *pBlob, int nBlob,
                      char **pzErr);

/*
** Start reading, in key order, and move to the first row. Nothing may be
** put after this. Then utf8ext_spill_next() moves to the next row, and
** utf8ext_spill_eof() is true once past the last.
*/
int utf8ext_spill_rewind(utf8ext_spill *p, char **pzErr);
int utf8ext_spill_next(utf8ext_spill *p, char **pzErr);
int utf8ext_spill_eof(utf8ext_spill *p);

/*
** The current row's blob and its size; valid until the next call on p.
** NULL if the blob is empty.
*/
const void *utf8ext_spill_blob(utf8ext_spill *p, int *pnBlob);

/* Close the store and delete what it wrote. NULL is a no-op. */
void utf8ext_spill_close(utf8ext_spill *p);

#endif /* UTF8EXT_SPILL_H */
