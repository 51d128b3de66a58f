/*
** utf8ext_spill.c - the scratch store of utf8ext_spill.h: one private
** temporary database holding
**
**     CREATE TABLE s(k1 INTEGER, k2 INTEGER, k3 INTEGER, v BLOB,
**                    PRIMARY KEY(k1, k2, k3)) WITHOUT ROWID
**
** Rows are put inside one transaction, so pages reach the temporary file
** only when the page cache is full, never at each row; a WITHOUT ROWID
** table is ordered by its key, so reading back in key order needs no
** sort. journal_mode=OFF and synchronous=OFF: the database is scratch,
** deleted when it is closed, and nothing is ever rolled back.
*/
#include "utf8ext_spill.h"

#include <string.h>

/*
** Page cache of the store, in KiB (SQLite's own default for a temporary
** database is 2,000 KiB). More buys little: rows are put mostly in key
** order, onto the B-tree's last pages.
*/
#ifndef UTF8EXT_SPILL_CACHE_KIB
# define UTF8EXT_SPILL_CACHE_KIB 2048
#endif

struct utf8ext_spill {
  sqlite3 *db;              /* The private connection */
  sqlite3_stmt *pPut;       /* INSERT of one row, until rewound */
  sqlite3_stmt *pGet;       /* SELECT of every row in key order, after */
  int bEof;                 /* pGet is past its last row */
};

/*
** rc, an error of db: SQLITE_NOMEM as it is, another code with SQLite's
** message in *pzErr.
*/
static int spillError(sqlite3 *db, int rc, char **pzErr){
  if( (rc & 0xff)==SQLITE_NOMEM ) return SQLITE_NOMEM;
  *pzErr = sqlite3_mprintf("temporary store: %s",
                           db ? sqlite3_errmsg(db) : sqlite3_errstr(rc));
  return *pzErr ? rc : SQLITE_NOMEM;
}

int utf8ext_spill_open(utf8ext_spill **pp, char **pzErr){
  utf8ext_spill *p;
  char *zSql;
  int rc;
  *pp = 0;
  p = sqlite3_malloc(sizeof(*p));
  if( p==0 ) return SQLITE_NOMEM;
  memset(p, 0, sizeof(*p));
  /* NOMUTEX: only the cursor that owns it uses it, under the user's
  ** connection's mutex (every virtual table method runs under it). */
  rc = sqlite3_open_v2("", &p->db, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
                       | SQLITE_OPEN_PRIVATECACHE | SQLITE_OPEN_NOMUTEX, 0);
  if( rc==SQLITE_OK ){
    zSql = sqlite3_mprintf(
        "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
        " PRAGMA cache_size=-%d;"
        " CREATE TABLE s(k1 INTEGER, k2 INTEGER, k3 INTEGER, v BLOB,"
        " PRIMARY KEY(k1, k2, k3)) WITHOUT ROWID; BEGIN",
        UTF8EXT_SPILL_CACHE_KIB);
    rc = zSql ? sqlite3_exec(p->db, zSql, 0, 0, 0) : SQLITE_NOMEM;
    sqlite3_free(zSql);
  }
  if( rc==SQLITE_OK ){
    rc = sqlite3_prepare_v2(p->db, "INSERT INTO s VALUES(?1, ?2, ?3, ?4)",
                            -1, &p->pPut, 0);
  }
  if( rc!=SQLITE_OK ){
    rc = spillError(p->db, rc, pzErr);
    utf8ext_spill_close(p);
    return rc;
  }
  *pp = p;
  return SQLITE_OK;
}

int utf8ext_spill_put(utf8ext_spill *p, sqlite3_int64 k1, sqlite3_int64 k2,
                      sqlite3_int64 k3, const void *pBlob, int nBlob,
                      char **pzErr){
  int rc;
  sqlite3_bind_int64(p->pPut, 1, k1);
  sqlite3_bind_int64(p->pPut, 2, k2);
  sqlite3_bind_int64(p->pPut, 3, k3);
  rc = sqlite3_bind_blob(p->pPut, 4, pBlob, nBlob, SQLITE_STATIC);
  if( rc==SQLITE_OK ){
    rc = sqlite3_step(p->pPut);
    rc = rc==SQLITE_DONE ? SQLITE_OK : rc;
  }
  /* reset even after an error: the statement is used again or finalized;
  ** and it drops the pointer to pBlob */
  sqlite3_reset(p->pPut);
  sqlite3_clear_bindings(p->pPut);
  return rc==SQLITE_OK ? SQLITE_OK : spillError(p->db, rc, pzErr);
}

int utf8ext_spill_rewind(utf8ext_spill *p, char **pzErr){
  int rc;
  sqlite3_finalize(p->pPut);
  p->pPut = 0;
  rc = sqlite3_prepare_v2(p->db, "SELECT v FROM s ORDER BY k1, k2, k3",
                          -1, &p->pGet, 0);
  if( rc!=SQLITE_OK ) return spillError(p->db, rc, pzErr);
  return utf8ext_spill_next(p, pzErr);
}

int utf8ext_spill_next(utf8ext_spill *p, char **pzErr){
  int rc = sqlite3_step(p->pGet);
  if( rc==SQLITE_ROW ) return SQLITE_OK;
  p->bEof = 1;
  return rc==SQLITE_DONE ? SQLITE_OK : spillError(p->db, rc, pzErr);
}

int utf8ext_spill_eof(utf8ext_spill *p){
  return p->bEof;
}

const void *utf8ext_spill_blob(utf8ext_spill *p, int *pnBlob){
  *pnBlob = sqlite3_column_bytes(p->pGet, 0);
  return sqlite3_column_blob(p->pGet, 0);
}

void utf8ext_spill_close(utf8ext_spill *p){
  if( p==0 ) return;
  sqlite3_finalize(p->pPut);
  sqlite3_finalize(p->pGet);
  sqlite3_close(p->db);
  sqlite3_free(p);
}
