/*
** utf8ext_job.c - one call of utf8_repair or utf8_undo as a job: its
** transaction, the repair log, the key and fingerprint that find a row
** again, and the refusals both functions make. utf8ext_repair.c and
** utf8ext_undo.c do the work; this file makes it all or nothing. It does
** the same for utf8_guard and utf8_unguard (utf8ext_guard.c): a job
** without a log (JOBS WITHOUT A LOG below).
**
** HOW A CALL IS ALL OR NOTHING
**
** Every write of a call is inside one transaction of the call's own: BEGIN
** IMMEDIATE when the call is made in autocommit (so the write lock is taken
** before anything is read, and busy_timeout applies to it), else a
** SAVEPOINT in the user's transaction. A process killed at any moment
** leaves the journal (or WAL) to undo an unfinished call on the next open.
**
** A failed call rolls its transaction back. That is not always possible
** from inside the call: sqlite3_interrupt() stays in force until the
** calling statement ends, so every statement the call runs afterwards
** fails, ROLLBACK included (even sqlite3_prepare fails); a progress
** handler may refuse every statement too. SQLite itself rolls back the
** whole transaction when a statement that writes is stopped while it runs
** (an interrupt, IOERR, SQLITE_FULL without a statement journal). So the
** job keeps a statement that writes and changes nothing, prepared before
** the transaction began (the rescue: an INSERT of none of a hundred
** thousand rows, long enough for a progress handler to stop it while it
** runs; the log's CREATE stands in while there is no log); when ROLLBACK
** cannot run, stepping it makes SQLite roll everything back. In
** autocommit that is exactly "nothing was changed". In the user's
** transaction it takes the user's earlier changes with it, and the
** message says so: the alternative, keeping them, would keep the call's
** half-done changes too.
**
** A progress handler is also called on a statement's way out, after its
** work is done, so COMMIT, RELEASE, SAVEPOINT and ROLLBACK TO may report
** SQLITE_INTERRUPT having run. None is judged by its return code alone:
** BEGIN and COMMIT by autocommit; the savepoint has a name of its own, and
** RELEASE runs until there is no such savepoint; ROLLBACK TO runs again
** (harmlessly) until it succeeds or the rescue ends the transaction. A
** rescue that could not even start shows that a ROLLBACK TO ran: undoing a
** schema change of the transaction (the log's CREATE) expires every
** statement, and only that does so during a call.
**
** A call is refused before anything starts when it is made from inside a
** statement that writes (it could not end its own transaction there), or
** when the schema's journal_mode is OFF (no rollback is possible at all).
**
** JOBS WITHOUT A LOG
**
** utf8_guard and utf8_unguard change the schema (triggers) and keep no
** log: utf8ext_job_begin_nolog() opens the same transaction, and their
** rescue is theirs (an INSERT of no rows into the guarded table, made by
** the caller). Such a job commits whenever it succeeds, as there is no
** log created for nothing to take back. A change of the temp schema
** expires every prepared statement at once, the rescue too, and under
** sqlite3_interrupt() it cannot be prepared again: so the caller prepares
** it again after each change (utf8ext_job_renew_rescue()), and while that
** fails the rescue is stale, and one that cannot start proves nothing: a
** ROLLBACK TO that reported an error is then not taken to have run. That
** is the one end that keeps a call's changes in the open transaction (a
** TEMP table interrupted between its two changes; docs/reference.md).
*/
#include "utf8ext_job.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* The log's declaration; %w is the schema. */
#define LOG_CREATE \
  "CREATE TABLE \"%w\"." UTF8EXT_LOG_TABLE "(\n" \
  "  id       INTEGER PRIMARY KEY,\n" \
  "  tbl      TEXT NOT NULL,\n" \
  "  col      TEXT NOT NULL,\n" \
  "  rid      INTEGER,\n" \
  "  key      BLOB,\n" \
  "  rowhash  BLOB,\n" \
  "  pk       TEXT,\n" \
  "  original BLOB NOT NULL,\n" \
  "  repaired BLOB NOT NULL,\n" \
  "  method   TEXT NOT NULL,\n" \
  "  at       TEXT NOT NULL DEFAULT (strftime('%%Y-%%m-%%d %%H:%%M:%%f', 'now'))\n" \
  ")"
#define LOG_COLUMNS "id,tbl,col,rid,key,rowhash,pk,original,repaired,method,at"
/* Its columns' declared types and key positions, as LOG_CREATE makes them
** (every version that wrote these columns declared them so). */
#define LOG_SHAPE "id INTEGER 1,tbl TEXT 0,col TEXT 0,rid INTEGER 0,key BLOB 0," \
                  "rowhash BLOB 0,pk TEXT 0,original BLOB 0,repaired BLOB 0," \
                  "method TEXT 0,at TEXT 0"

/* How often job_rollback() tries before it gives up. */
#define JOB_ROLLBACK_TRIES 8

/* ---- errors ------------------------------------------------------------ */

int utf8ext_job_error(repair_job *pJob, int rc, const char *zFormat, ...){
  va_list ap;
  if( rc==SQLITE_NOMEM || pJob->zErr ) return rc;
  va_start(ap, zFormat);
  pJob->zErr = sqlite3_vmprintf(zFormat, ap);
  va_end(ap);
  return pJob->zErr ? rc : SQLITE_NOMEM;
}

int utf8ext_job_sql_error(repair_job *pJob, int rc){
  return utf8ext_job_error(pJob, rc, "%s", sqlite3_errmsg(pJob->db));
}

/*
** "table "t", column "c", row <key>" for messages, with every name
** escaped so the message is well-formed UTF-8; iCol<0 leaves out the
** column, zPk NULL the row. From sqlite3_mprintf(); NULL when out of
** memory.
*/
static char *where_text(const utf8ext_table *p, int iCol, const char *zPk){
  sqlite3_str *s = sqlite3_str_new(0);
  sqlite3_str_appendall(s, "table \"");
  utf8ext_append_escaped(s, (const unsigned char*)p->zName,
                         (sqlite3_int64)strlen(p->zName));
  sqlite3_str_appendall(s, "\"");
  if( iCol>=0 ){
    sqlite3_str_appendall(s, ", column \"");
    utf8ext_append_escaped(s, (const unsigned char*)p->azCol[iCol],
                           (sqlite3_int64)strlen(p->azCol[iCol]));
    sqlite3_str_appendall(s, "\"");
  }
  if( zPk ){
    /* A long key is cut: the message must stay far below any length
    ** limit, and the start of the key finds the row for a person. */
    sqlite3_int64 n = (sqlite3_int64)strlen(zPk);
    sqlite3_str_appendall(s, ", row ");
    utf8ext_append_escaped(s, (const unsigned char*)zPk, n>100 ? 100 : n);
    if( n>100 ) sqlite3_str_appendall(s, "...");
  }
  if( sqlite3_str_errcode(s)!=SQLITE_OK ){
    sqlite3_free(sqlite3_str_finish(s));
    return 0;
  }
  return sqlite3_str_finish(s);
}

int utf8ext_job_error_at(repair_job *pJob, int rc, const utf8ext_table *p,
                         int iCol,
               const char *zPk, const char *zFormat, ...){
  char *zWhere, *zMsg;
  va_list ap;
  if( rc==SQLITE_NOMEM || pJob->zErr ) return rc;
  va_start(ap, zFormat);
  zMsg = sqlite3_vmprintf(zFormat, ap);
  va_end(ap);
  zWhere = where_text(p, iCol, zPk);
  if( zMsg && zWhere ) rc = utf8ext_job_error(pJob, rc, "%s: %s", zWhere, zMsg);
  else rc = SQLITE_NOMEM;
  sqlite3_free(zMsg);
  sqlite3_free(zWhere);
  return rc;
}

/* ---- statements ---------------------------------------------------------- */

int utf8ext_job_prepare(repair_job *pJob, char *zSql, sqlite3_stmt **pp){
  int rc;
  *pp = 0;
  if( zSql==0 ) return SQLITE_NOMEM;
  rc = sqlite3_prepare_v2(pJob->db, zSql, -1, pp, 0);
  sqlite3_free(zSql);
  return rc==SQLITE_OK ? rc : utf8ext_job_sql_error(pJob, rc);
}

int utf8ext_job_exec(repair_job *pJob, const char *zSql){
  int rc = sqlite3_exec(pJob->db, zSql, 0, 0, 0);
  return rc==SQLITE_OK ? rc : utf8ext_job_sql_error(pJob, rc);
}

int utf8ext_job_step_write(sqlite3_stmt *pStmt){
  int rc;
  while( (rc = sqlite3_step(pStmt))==SQLITE_ROW ){}
  if( rc==SQLITE_DONE ){
    sqlite3_reset(pStmt);
    return SQLITE_OK;
  }
  sqlite3_reset(pStmt);
  return rc;
}

/*
** Finish the SELECT begun in s with "FROM t WHERE <locator from ?1>" and
** prepare it (s is finished here).
*/
static int prepare_from_locator(repair_job *pJob, const utf8ext_table *p,
                                sqlite3_str *s, sqlite3_stmt **pp){
  sqlite3_str_appendf(s, " FROM \"%w\".\"%w\" AS \"%w\" WHERE ",
                      p->zSchema, p->zFrom, p->zFrom);
  utf8ext_append_locator(s, p, 1);
  if( sqlite3_str_errcode(s)!=SQLITE_OK ){
    sqlite3_free(sqlite3_str_finish(s));
    return SQLITE_NOMEM;
  }
  return utf8ext_job_prepare(pJob, sqlite3_str_finish(s), pp);
}

int utf8ext_job_prepare_update(repair_job *pJob, const utf8ext_table *p,
                       const int *aiCol, int n, sqlite3_stmt **pp){
  sqlite3_str *s = sqlite3_str_new(0);
  int i;
  sqlite3_str_appendf(s, "UPDATE OR ABORT \"%w\".\"%w\" AS \"%w\" SET ",
                      p->zSchema, p->zFrom, p->zFrom);
  for(i=0; i<n; i++){
    sqlite3_str_appendf(s, "%s\"%w\"=?%d", i ? ", " : "", p->azCol[aiCol[i]],
                        i+1);
  }
  sqlite3_str_appendall(s, " WHERE ");
  utf8ext_append_locator(s, p, n+1);
  if( sqlite3_str_errcode(s)!=SQLITE_OK ){
    sqlite3_free(sqlite3_str_finish(s));
    return SQLITE_NOMEM;
  }
  return utf8ext_job_prepare(pJob, sqlite3_str_finish(s), pp);
}

int utf8ext_job_prepare_read(repair_job *pJob, const utf8ext_table *p,
                     const int *aiCol, int n, sqlite3_stmt **pp){
  sqlite3_str *s = sqlite3_str_new(0);
  int i;
  utf8ext_append_select_head(s, p);
  for(i=0; i<n; i++){
    sqlite3_str_appendall(s, ", ");
    utf8ext_append_column(s, p, aiCol[i]);
  }
  return prepare_from_locator(pJob, p, s, pp);
}

void utf8ext_job_statements_clear(repair_job *pJob){
  int i;
  for(i=0; i<JOB_STMT_CACHE; i++){
    job_stmts *c = &pJob->aStmt[i];
    sqlite3_finalize(c->pUpdate);
    sqlite3_finalize(c->pRead);
    sqlite3_free(c->aiCol);
    memset(c, 0, sizeof(*c));
  }
}

int utf8ext_job_statements(repair_job *pJob, const utf8ext_table *p,
                           const int *aiCol,
                   int n, sqlite3_stmt **ppUpdate, sqlite3_stmt **ppRead){
  job_stmts *c, *pOldest = &pJob->aStmt[0];
  int i, rc;
  pJob->iTick++;
  for(i=0; i<JOB_STMT_CACHE; i++){
    c = &pJob->aStmt[i];
    if( c->aiCol && c->nCol==n && memcmp(c->aiCol, aiCol, sizeof(int)*n)==0 ){
      c->iUsed = pJob->iTick;
      *ppUpdate = c->pUpdate;
      *ppRead = c->pRead;
      return SQLITE_OK;
    }
    if( c->aiCol==0 || c->iUsed<pOldest->iUsed ) pOldest = c;
    if( c->aiCol==0 ) break;
  }
  c = pOldest;
  sqlite3_finalize(c->pUpdate);
  sqlite3_finalize(c->pRead);
  sqlite3_free(c->aiCol);
  memset(c, 0, sizeof(*c));
  rc = utf8ext_job_prepare_update(pJob, p, aiCol, n, &c->pUpdate);
  if( rc==SQLITE_OK ) rc = utf8ext_job_prepare_read(pJob, p, aiCol, n, &c->pRead);
  if( rc==SQLITE_OK ){
    c->aiCol = sqlite3_malloc64(sizeof(int)*(n+1));
    if( c->aiCol==0 ) rc = SQLITE_NOMEM;
  }
  if( rc!=SQLITE_OK ){
    sqlite3_finalize(c->pUpdate);
    sqlite3_finalize(c->pRead);
    sqlite3_free(c->aiCol);
    memset(c, 0, sizeof(*c));
    return rc;
  }
  memcpy(c->aiCol, aiCol, sizeof(int)*n);
  c->nCol = n;
  c->iUsed = pJob->iTick;
  *ppUpdate = c->pUpdate;
  *ppRead = c->pRead;
  return SQLITE_OK;
}

int utf8ext_job_read_one_row(repair_job *pJob, const utf8ext_table *p,
                     sqlite3_stmt *pRead, const char *zPk){
  int rc = sqlite3_step(pRead);
  if( rc==SQLITE_ROW ) return SQLITE_OK;
  if( rc==SQLITE_DONE ){
    return utf8ext_job_error_at(pJob, SQLITE_ERROR, p, -1, zPk,
                      "the row is not there (any more)");
  }
  return utf8ext_job_sql_error(pJob, rc);
}

int utf8ext_job_stored_equals(sqlite3_stmt *pRow, int iCol, int eTextEnc,
                      const void *z, sqlite3_int64 n){
  const unsigned char *zHave;
  sqlite3_int64 nHave;
  if( sqlite3_column_type(pRow, iCol)!=SQLITE_TEXT ) return 0;
  if( !utf8ext_stored_text(sqlite3_column_value(pRow, iCol), eTextEnc,
                           &zHave, &nHave) ) return 0;
  return nHave==n && (n==0 || memcmp(zHave, z, (size_t)n)==0);
}

unsigned char *utf8ext_job_copy_bytes(const void *z, sqlite3_int64 n){
  unsigned char *p = sqlite3_malloc64(n+1);
  if( p && n>0 ) memcpy(p, z, (size_t)n);
  return p;
}

/* ---- the key, encoded as values for the log -------------------------------- */

/* Append the 8 bytes of u, most significant first. */
static void put_u64(sqlite3_str *s, sqlite3_uint64 u){
  char a[8];
  int i;
  for(i=7; i>=0; i--){ a[i] = (char)(u & 0xFF); u >>= 8; }
  sqlite3_str_append(s, a, 8);
}

void utf8ext_key_append(sqlite3_str *s, sqlite3_value *v, int eTextEnc){
  const unsigned char *z = 0;
  sqlite3_int64 n = 0;
  char tag;
  double r;
  sqlite3_uint64 u;
  switch( sqlite3_value_type(v) ){
    case SQLITE_INTEGER:
      sqlite3_str_appendchar(s, 1, KEY_INT);
      put_u64(s, (sqlite3_uint64)sqlite3_value_int64(v));
      return;
    case SQLITE_FLOAT:
      r = sqlite3_value_double(v);
      memcpy(&u, &r, 8);
      sqlite3_str_appendchar(s, 1, KEY_FLOAT);
      put_u64(s, u);
      return;
    case SQLITE_TEXT:
      tag = KEY_TEXT;
      if( !utf8ext_stored_text(v, eTextEnc, &z, &n) ) z = 0;
      break;
    case SQLITE_BLOB:
      tag = KEY_BLOB;
      z = sqlite3_value_blob(v);
      n = sqlite3_value_bytes(v);
      break;
    default:
      sqlite3_str_appendchar(s, 1, KEY_NULL);
      return;
  }
  if( z==0 && n>0 ){
    sqlite3_str_reset(s);     /* out of memory: the caller sees no key */
    return;
  }
  sqlite3_str_appendchar(s, 1, tag);
  put_u64(s, (sqlite3_uint64)n);
  if( n>0 ) sqlite3_str_append(s, (const char*)z, (int)n);
}

/* Read 8 bytes, most significant first. */
static sqlite3_uint64 get_u64(const unsigned char *a){
  sqlite3_uint64 u = 0;
  int i;
  for(i=0; i<8; i++) u = (u<<8) | a[i];
  return u;
}

int utf8ext_key_bind(sqlite3_stmt *pStmt, int iParam, const unsigned char *z,
             sqlite3_int64 n, int nPart, int eTextEnc){
  sqlite3_int64 i = 1;
  int k, rc = SQLITE_OK;
  if( n<1 || z[0]!=nPart ) return SQLITE_CORRUPT;
  for(k=0; rc==SQLITE_OK && k<nPart; k++){
    sqlite3_uint64 u, len;
    double r;
    if( i>=n ) return SQLITE_CORRUPT;
    switch( z[i++] ){
      case KEY_NULL:
        rc = sqlite3_bind_null(pStmt, iParam+k);
        break;
      case KEY_INT:
        if( n-i<8 ) return SQLITE_CORRUPT;
        rc = sqlite3_bind_int64(pStmt, iParam+k, (sqlite3_int64)get_u64(z+i));
        i += 8;
        break;
      case KEY_FLOAT:
        if( n-i<8 ) return SQLITE_CORRUPT;
        u = get_u64(z+i);
        memcpy(&r, &u, 8);
        rc = sqlite3_bind_double(pStmt, iParam+k, r);
        i += 8;
        break;
      case KEY_TEXT:
      case KEY_BLOB:
        if( n-i<8 ) return SQLITE_CORRUPT;
        len = get_u64(z+i);
        i += 8;
        if( len>(sqlite3_uint64)(n-i) ) return SQLITE_CORRUPT;
        if( z[i-9]==KEY_TEXT ){
          rc = sqlite3_bind_text64(pStmt, iParam+k, (const char*)z+i, len,
                                   SQLITE_TRANSIENT, (unsigned char)eTextEnc);
        }else{
          rc = sqlite3_bind_blob64(pStmt, iParam+k, z+i, len, SQLITE_TRANSIENT);
        }
        i += (sqlite3_int64)len;
        break;
      default:
        return SQLITE_CORRUPT;
    }
  }
  if( rc==SQLITE_OK && i!=n ) rc = SQLITE_CORRUPT;
  return rc;
}

/* ---- refusals before anything changes -------------------------------------- */

/*
** True if the trigger whose CREATE statement is zSql fires on UPDATE: the
** word UPDATE stands, unquoted, in its head, before the ON that names its
** table (its name, quoted or not, can never be the bare keyword).
*/
static int trigger_fires_on_update(const char *zSql){
  const char *z = zSql;
  while( z && *z ){
    if( *z=='"' || *z=='\'' || *z=='`' || *z=='[' ){
      char close = *z=='[' ? ']' : *z;
      for(z++; *z && *z!=close; z++){}
      if( *z ) z++;
    }else if( z[0]=='-' && z[1]=='-' ){
      while( *z && *z!='\n' ) z++;
    }else if( z[0]=='/' && z[1]=='*' ){
      for(z+=2; *z && !(z[0]=='*' && z[1]=='/'); z++){}
      if( *z ) z += 2;
    }else if( (*z>='a' && *z<='z') || (*z>='A' && *z<='Z') || *z=='_'
           || (*z & 0x80) ){
      /* a bare word: SQLite's identifier characters, $ and every byte of
      ** a non-ASCII character included, so "a$on" or "éon" is one word */
      const char *w = z;
      while( (*z>='a' && *z<='z') || (*z>='A' && *z<='Z') || *z=='_'
          || (*z>='0' && *z<='9') || *z=='$' || (*z & 0x80) ) z++;
      if( z-w==2 && sqlite3_strnicmp(w, "ON", 2)==0 ) return 0;
      if( z-w==6 && sqlite3_strnicmp(w, "UPDATE", 6)==0 ) return 1;
    }else{
      z++;
    }
  }
  return 1;   /* no ON found: not understood, so assume it does */
}

/*
** Refuse a table with a trigger that fires on UPDATE, in its own schema or
** in temp (a temporary trigger can watch a table of any schema). The
** update trigger of utf8_guard (utf8ext_guard.c) in the table's own
** schema only refuses ill-formed text: a repair, which writes only
** well-formed text, lets it be; undo, which writes the ill-formed
** originals back, would be refused by it half way, so it refuses the
** table before it starts.
*/
int utf8ext_refuse_update_triggers(repair_job *pJob, const utf8ext_table *p){
  sqlite3_stmt *pStmt;
  int bTemp = sqlite3_stricmp(p->zSchema, "temp")==0;
  int rc = utf8ext_job_prepare(pJob, sqlite3_mprintf(
      "SELECT name, sql, tbl_name, 1 FROM \"%w\".sqlite_master"
      " WHERE type='trigger' AND tbl_name=?1 COLLATE NOCASE UNION ALL"
      " SELECT name, sql, tbl_name, 0 FROM temp.sqlite_master"
      " WHERE type='trigger' AND tbl_name=?1 COLLATE NOCASE", p->zSchema),
      &pStmt);
  if( rc!=SQLITE_OK ) return rc;
  sqlite3_bind_text(pStmt, 1, p->zName, -1, SQLITE_STATIC);
  while( (rc = sqlite3_step(pStmt))==SQLITE_ROW ){
    const char *zName = (const char*)sqlite3_column_text(pStmt, 0);
    const char *zSql = (const char*)sqlite3_column_text(pStmt, 1);
    int eKind = 0;
    if( zSql==0 || !trigger_fires_on_update(zSql) ) continue;
    if( bTemp || sqlite3_column_int(pStmt, 3) ){
      eKind = utf8ext_guard_trigger_kind(
          (const char*)sqlite3_column_text(pStmt, 2), zName, zSql);
      if( eKind<0 ){ rc = -eKind; break; }
    }
    if( eKind==UTF8EXT_GUARD_UPDATE && strcmp(pJob->zFunc, "utf8_undo")!=0 ){
      continue;
    }
    if( eKind==UTF8EXT_GUARD_UPDATE ){
      char *zCall = bTemp || sqlite3_stricmp(p->zSchema, "main")!=0
          ? sqlite3_mprintf("'%q', '%q'", p->zName, p->zSchema)
          : sqlite3_mprintf("'%q'", p->zName);
      if( zCall==0 ){ rc = SQLITE_NOMEM; break; }
      rc = utf8ext_job_error_at(pJob, SQLITE_ERROR, p, -1, 0,
          "it is guarded by utf8_guard (trigger \"%w\"), which would refuse"
          " the ill-formed originals undo writes back; call utf8_unguard(%s)"
          " first, then utf8_guard(%s) after", zName, zCall, zCall);
      sqlite3_free(zCall);
    }else{
      rc = utf8ext_job_error_at(pJob, SQLITE_ERROR, p, -1, 0,
          "trigger \"%w\" fires on UPDATE and could change what is written"
          " or act elsewhere, so the round trip could not be exact; drop it"
          " for the repair and create it again after%s", zName,
          sqlite3_strnicmp(zName, "utf8_guard_", 11)==0
          ? " (a trigger of utf8_guard whose table or column was renamed"
            " since is no longer one: drop it, and call utf8_guard again)"
          : "");
    }
    break;
  }
  if( rc==SQLITE_DONE ) rc = SQLITE_OK;
  else if( rc!=SQLITE_ERROR && rc!=SQLITE_NOMEM ){
    rc = utf8ext_job_sql_error(pJob, rc);
  }
  sqlite3_finalize(pStmt);
  return rc;
}

void utf8ext_fk_free(char **azWhy, int nCol){
  int i;
  for(i=0; azWhy && i<nCol; i++) sqlite3_free(azWhy[i]);
  sqlite3_free(azWhy);
}

int utf8ext_fk_update_actions(repair_job *pJob, const utf8ext_table *p,
                      char ***pazWhy){
  sqlite3_stmt *pStmt;
  char **azWhy;
  int rc, i;
  *pazWhy = 0;
  if( !pJob->bForeignKeys ) return SQLITE_OK;
  azWhy = sqlite3_malloc64(sizeof(char*)*(p->nCol+1));
  if( azWhy==0 ) return SQLITE_NOMEM;
  memset(azWhy, 0, sizeof(char*)*(p->nCol+1));
  rc = utf8ext_job_prepare(pJob, sqlite3_mprintf(
      "SELECT m.name, f.\"to\", f.on_update FROM \"%w\".sqlite_master AS m,"
      " pragma_foreign_key_list(m.name, ?2) AS f"
      " WHERE m.type='table' AND f.\"table\"=?1 COLLATE NOCASE"
      " AND f.on_update NOT IN ('NO ACTION', 'RESTRICT')", p->zSchema),
      &pStmt);
  if( rc!=SQLITE_OK ){
    sqlite3_free(azWhy);
    return rc;
  }
  sqlite3_bind_text(pStmt, 1, p->zName, -1, SQLITE_STATIC);
  sqlite3_bind_text(pStmt, 2, p->zSchema, -1, SQLITE_STATIC);
  while( rc==SQLITE_OK && (rc = sqlite3_step(pStmt))==SQLITE_ROW ){
    const char *zTo = (const char*)sqlite3_column_text(pStmt, 1);
    rc = SQLITE_OK;
    for(i=0; rc==SQLITE_OK && i<p->nCol; i++){
      int bRef, k;
      if( zTo ){
        bRef = sqlite3_stricmp(zTo, p->azCol[i])==0;
      }else{
        /* a reference to the parent's primary key */
        for(bRef=0, k=0; k<p->nPk; k++) bRef |= p->aiPk[k]==i;
      }
      if( bRef && azWhy[i]==0 ){
        azWhy[i] = sqlite3_mprintf("table \"%w\" references it with ON UPDATE"
            " %s, which undo could not reverse exactly",
            sqlite3_column_text(pStmt, 0), sqlite3_column_text(pStmt, 2));
        if( azWhy[i]==0 ) rc = SQLITE_NOMEM;
      }
    }
  }
  if( rc==SQLITE_DONE ) rc = SQLITE_OK;
  else if( rc!=SQLITE_NOMEM ) rc = utf8ext_job_sql_error(pJob, rc);
  sqlite3_finalize(pStmt);
  if( rc!=SQLITE_OK ){
    utf8ext_fk_free(azWhy, p->nCol);
    return rc;
  }
  *pazWhy = azWhy;
  return SQLITE_OK;
}

int utf8ext_refuse_unlocatable(repair_job *pJob, const utf8ext_table *p){
  if( p->zRowid==0 && p->nPk>255 ){
    /* the log keeps the count of key parts in one byte */
    return utf8ext_job_error_at(pJob, SQLITE_ERROR, p, -1, 0,
        "its primary key has %d columns, more than the 255 the log can keep",
        p->nPk);
  }
  if( p->zRowid || (p->bWithoutRowid && p->nPk>0) ) return SQLITE_OK;
  return utf8ext_job_error_at(pJob, SQLITE_ERROR, p, -1, 0,
      "its columns take all of the names rowid, _rowid_ and oid, so its rows"
      " cannot be found again by rowid");
}

/* ---- the row's fingerprint ---------------------------------------------- */

/*
** A rowid finds the same row for ever only when it is the INTEGER PRIMARY
** KEY: VACUUM may renumber every other rowid. For a table found by such an
** unstable rowid the log keeps a fingerprint of the row as the repair left
** it (its ordinary columns, 128 bits, and how many columns the table had),
** and undo writes only into a row that still has it. Columns added since
** (ALTER TABLE ADD COLUMN appends them) are left out of undo's reading, so
** a new column does not make the row look edited. A rowid table's declared
** key that is not its rowid always has an index of origin 'pk'; the
** INTEGER PRIMARY KEY has none.
*/
int utf8ext_fp_open(repair_job *pJob, const utf8ext_table *p){
  sqlite3_stmt *pStmt;
  int rc, nStep, iPass, i, bStable = 0;
  if( p->zRowid==0 ) return SQLITE_OK;
  if( p->nPk==1 ){
    rc = utf8ext_job_prepare(pJob, sqlite3_mprintf("SELECT count(*) FROM"
        " pragma_index_list(?1, ?2) WHERE origin='pk'"), &pStmt);
    if( rc!=SQLITE_OK ) return rc;
    sqlite3_bind_text(pStmt, 1, p->zFrom, -1, SQLITE_STATIC);
    sqlite3_bind_text(pStmt, 2, p->zSchema, -1, SQLITE_STATIC);
    rc = sqlite3_step(pStmt);
    if( rc==SQLITE_ROW ) bStable = sqlite3_column_int(pStmt, 0)==0;
    rc = sqlite3_finalize(pStmt);
    if( rc!=SQLITE_OK ) return utf8ext_job_sql_error(pJob, rc);
  }
  if( bStable ) return SQLITE_OK;
  /* each pass reads nStep columns beside a constant first one */
  nStep = sqlite3_limit(pJob->db, SQLITE_LIMIT_COLUMN, -1) - 1;
  if( nStep<1 ) nStep = 1;
  pJob->apFp = sqlite3_malloc64(sizeof(sqlite3_stmt*)*(p->nCol/nStep+1));
  if( pJob->apFp==0 ) return SQLITE_NOMEM;
  for(iPass=0; iPass<p->nCol; iPass+=nStep){
    sqlite3_str *s = sqlite3_str_new(0);
    sqlite3_str_appendall(s, "SELECT 0");
    for(i=iPass; i<iPass+nStep && i<p->nCol; i++){
      if( p->aGenerated[i] ) continue;
      sqlite3_str_appendall(s, ", ");
      utf8ext_append_column(s, p, i);
    }
    rc = prepare_from_locator(pJob, p, s, &pJob->apFp[pJob->nFp]);
    if( rc!=SQLITE_OK ) return rc;
    pJob->nFp++;
  }
  return SQLITE_OK;
}

void utf8ext_fp_close(repair_job *pJob){
  int i;
  for(i=0; i<pJob->nFp; i++) sqlite3_finalize(pJob->apFp[i]);
  sqlite3_free(pJob->apFp);
  pJob->apFp = 0;
  pJob->nFp = 0;
}

/* Mix n bytes into the two 64-bit halves of a fingerprint. */
static void fp_add(sqlite3_uint64 h[2], const void *pv, sqlite3_int64 n){
  const unsigned char *z = pv;
  sqlite3_int64 i;
  for(i=0; i<n; i++){
    h[0] = (h[0] ^ z[i]) * 0x100000001B3ull;            /* FNV-1a */
    h[1] = (h[1] + z[i] + 1) * 0x9E3779B97F4A7C15ull;   /* a second mix */
    h[1] ^= h[1]>>29;
  }
}

/* Mix value v (its type, length and bytes as stored) into h. */
static int fp_value(sqlite3_uint64 h[2], sqlite3_value *v, int eTextEnc){
  unsigned char head[9];
  const unsigned char *z = 0;
  sqlite3_int64 n = 0, i;
  sqlite3_uint64 u = 0;
  double r;
  head[0] = (unsigned char)sqlite3_value_type(v);
  switch( head[0] ){
    case SQLITE_INTEGER: u = (sqlite3_uint64)sqlite3_value_int64(v); break;
    case SQLITE_FLOAT: r = sqlite3_value_double(v); memcpy(&u, &r, 8); break;
    case SQLITE_TEXT:
      if( !utf8ext_stored_text(v, eTextEnc, &z, &n) ) return SQLITE_NOMEM;
      u = (sqlite3_uint64)n;
      break;
    case SQLITE_BLOB:
      z = sqlite3_value_blob(v);
      n = sqlite3_value_bytes(v);
      if( z==0 && n>0 ) return SQLITE_NOMEM;
      u = (sqlite3_uint64)n;
      break;
  }
  for(i=0; i<8; i++) head[1+i] = (unsigned char)(u>>(8*i));
  fp_add(h, head, 9);
  if( n>0 ) fp_add(h, z, n);
  return SQLITE_OK;
}

int utf8ext_row_fingerprint(repair_job *pJob, const utf8ext_table *p,
                    sqlite3_int64 iRowid, int nCol, unsigned char *out){
  sqlite3_uint64 h[2] = { 0xCBF29CE484222325ull, 0x84222325CBF29CE4ull };
  int nStep = sqlite3_limit(pJob->db, SQLITE_LIMIT_COLUMN, -1) - 1;
  int iPass, i, k, rc = SQLITE_OK;
  if( nStep<1 ) nStep = 1;
  for(iPass=0; rc==SQLITE_OK && iPass<pJob->nFp; iPass++){
    sqlite3_stmt *pStmt = pJob->apFp[iPass];
    sqlite3_bind_int64(pStmt, 1, iRowid);
    rc = sqlite3_step(pStmt);
    if( rc==SQLITE_ROW ){
      rc = SQLITE_OK;
      /* result column k reads the k-th ordinary column of this pass */
      for(k=1, i=iPass*nStep; rc==SQLITE_OK && i<(iPass+1)*nStep && i<p->nCol;
          i++){
        if( p->aGenerated[i] ) continue;
        if( i<nCol ) rc = fp_value(h, sqlite3_column_value(pStmt, k),
                                   p->eTextEnc);
        k++;
      }
    }else if( rc==SQLITE_DONE ){
      rc = utf8ext_job_error_at(pJob, SQLITE_ERROR, p, -1, 0,
                                "no row has rowid %lld",
                      iRowid);
    }else{
      rc = utf8ext_job_sql_error(pJob, rc);
    }
    sqlite3_reset(pStmt);
  }
  for(i=0; i<8; i++){
    out[i] = (unsigned char)(h[0]>>(8*i));
    out[8+i] = (unsigned char)(h[1]>>(8*i));
  }
  return rc;
}

/* ---- the log ------------------------------------------------------------------ */

int utf8ext_log_exists(repair_job *pJob, int *pbExists){
  sqlite3_stmt *pStmt;
  int rc = utf8ext_job_prepare(pJob, sqlite3_mprintf(
      "SELECT (SELECT group_concat(name, ',') FROM (SELECT name FROM"
      "   pragma_table_info('" UTF8EXT_LOG_TABLE "', ?1) ORDER BY cid)),"
      " (SELECT type FROM \"%w\".sqlite_master"
      "   WHERE name='" UTF8EXT_LOG_TABLE "' COLLATE NOCASE),"
      " (SELECT group_concat(name) FROM (SELECT name FROM \"%w\".sqlite_master"
      "   WHERE type='trigger' AND tbl_name='" UTF8EXT_LOG_TABLE "' COLLATE NOCASE"
      "   UNION ALL SELECT name FROM temp.sqlite_master WHERE type='trigger'"
      "   AND tbl_name='" UTF8EXT_LOG_TABLE "' COLLATE NOCASE)),"
      " (SELECT group_concat(name || ' ' || upper(type) || ' ' || pk, ',') FROM"
      "   (SELECT name, type, pk FROM pragma_table_info('" UTF8EXT_LOG_TABLE "', ?1)"
      "    ORDER BY cid)),"
      " (SELECT count(*) FROM pragma_index_list('" UTF8EXT_LOG_TABLE "', ?1)"
      "   WHERE origin='pk')",
      pJob->zSchema, pJob->zSchema), &pStmt);
  *pbExists = 0;
  if( rc!=SQLITE_OK ) return rc;
  sqlite3_bind_text(pStmt, 1, pJob->zSchema, -1, SQLITE_STATIC);
  rc = sqlite3_step(pStmt);
  if( rc==SQLITE_ROW ){
    const char *z = (const char*)sqlite3_column_text(pStmt, 0);
    const char *zType = (const char*)sqlite3_column_text(pStmt, 1);
    const char *zTriggers = (const char*)sqlite3_column_text(pStmt, 2);
    const char *zShape = (const char*)sqlite3_column_text(pStmt, 3);
    int bKeyIndex = sqlite3_column_int(pStmt, 4)>0;
    rc = SQLITE_OK;
    if( zType && strcmp(zType, "table")!=0 ){
      rc = utf8ext_job_error(pJob, SQLITE_ERROR,
                             "\"%w\"." UTF8EXT_LOG_TABLE " is a %s,"
          " not a utf8ext repair log; rename it", pJob->zSchema, zType);
    }else if( zTriggers ){
      /* A trigger on the log would act on every write of repair and undo. */
      rc = utf8ext_job_error(pJob, SQLITE_ERROR,
                             "\"%w\"." UTF8EXT_LOG_TABLE " has"
          " triggers (%s), which would act on every log write; drop them",
          pJob->zSchema, zTriggers);
    }else if( z && strcmp(z, LOG_COLUMNS)==0
           && (zShape==0 || strcmp(zShape, LOG_SHAPE)!=0 || bKeyIndex) ){
      /* undo reads the log newest first by id and deletes by id, and finds
      ** rows by rid: an id that is not the rowid (INTEGER PRIMARY KEY, not
      ** DESC, not WITHOUT ROWID) may be NULL, and a rid of other affinity
      ** may not hold the rowid exactly */
      rc = utf8ext_job_error(pJob, SQLITE_ERROR,
                             "\"%w\"." UTF8EXT_LOG_TABLE " has the"
          " log's columns but not its declaration (types and keys: %s%s; a"
          " log's: %s, id its rowid), so it is not a utf8ext repair log;"
          " rename it", pJob->zSchema, zShape ? zShape : "",
          bKeyIndex ? ", id not its rowid" : "", LOG_SHAPE);
    }else if( z && strcmp(z, LOG_COLUMNS)==0 ){
      *pbExists = 1;
    }else if( z ){
      rc = utf8ext_job_error(pJob, SQLITE_ERROR,
                             "\"%w\"." UTF8EXT_LOG_TABLE " exists"
          " but is not a utf8ext repair log (its columns are %s, not %s);"
          " rename it", pJob->zSchema, z, LOG_COLUMNS);
    }
  }else{
    rc = utf8ext_job_sql_error(pJob, rc);
  }
  sqlite3_finalize(pStmt);
  return rc;
}

int utf8ext_log_open(repair_job *pJob){
  sqlite3_stmt *pMax;
  int rc;
  if( pJob->pLogInsert ) return SQLITE_OK;
  /* A run's log rows take ids that follow each other, from one after a
  ** gap, and one time: undo puts a row's entries back together only when
  ** their ids follow each other and their method and time agree, so two
  ** runs' entries for one key are never taken for one run's */
  rc = utf8ext_job_prepare(pJob, sqlite3_mprintf("SELECT max(id),"
      " strftime('%%Y-%%m-%%d %%H:%%M:%%f', 'now')"
      " FROM \"%w\"." UTF8EXT_LOG_TABLE, pJob->zSchema), &pMax);
  if( rc!=SQLITE_OK ) return rc;
  rc = sqlite3_step(pMax);
  if( rc==SQLITE_ROW ){
    sqlite3_int64 iMax = sqlite3_column_int64(pMax, 0);
    int bEmpty = sqlite3_column_type(pMax, 0)==SQLITE_NULL;
    pJob->zAt = utf8ext_column_dup(pMax, 1);
    rc = pJob->zAt ? SQLITE_OK : SQLITE_NOMEM;
    if( rc==SQLITE_OK && iMax>=((sqlite3_int64)1<<62) ){
      rc = utf8ext_job_error(pJob, SQLITE_ERROR, "\"%w\"." UTF8EXT_LOG_TABLE
          " has ids near the largest integer (%lld), past which a"
          " run's log rows could not take ids that follow each other;"
          " undo or empty it first", pJob->zSchema, iMax);
    }
    pJob->iNextId = bEmpty ? 1 : iMax+2;
  }else{
    rc = utf8ext_job_sql_error(pJob, rc);
  }
  sqlite3_finalize(pMax);
  /* OR ABORT: an ON CONFLICT clause of the log's own (IGNORE, REPLACE)
  ** could drop this row or another silently */
  if( rc==SQLITE_OK ){
    rc = utf8ext_job_prepare(pJob, sqlite3_mprintf(
        "INSERT OR ABORT INTO \"%w\"." UTF8EXT_LOG_TABLE
        "(tbl, col, rid, key, pk, original, repaired, method, rowhash, id, at)"
        " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)", pJob->zSchema),
        &pJob->pLogInsert);
  }
  return rc;
}

/* ---- the call: begin -------------------------------------------------------- */

/*
** Refuse a call made from inside a statement that writes (INSERT INTO x
** SELECT utf8_repair('t'), a temporary trigger): its transaction is that
** statement's, which the call could neither commit nor roll back.
*/
static int refuse_write_context(repair_job *pJob){
  sqlite3_stmt *p = 0;
  while( (p = sqlite3_next_stmt(pJob->db, p))!=0 ){
    if( sqlite3_stmt_busy(p) && !sqlite3_stmt_readonly(p) ){
      return utf8ext_job_error(pJob, SQLITE_ERROR,
                               "call it in a statement of its own"
          " (SELECT %s(...)), not from inside a statement that writes: it"
          " must begin and end a transaction of its own", pJob->zFunc);
    }
  }
  return SQLITE_OK;
}

/* The one value of a PRAGMA (an integer; text in *pz when pz is given). */
static int job_pragma(repair_job *pJob, const char *zPragma, int *piVal,
                      char **pz){
  sqlite3_stmt *pStmt;
  int rc = utf8ext_job_prepare(pJob, sqlite3_mprintf("PRAGMA \"%w\".%s",
                                            pJob->zSchema, zPragma), &pStmt);
  if( rc!=SQLITE_OK ) return rc;
  rc = sqlite3_step(pStmt);
  if( rc==SQLITE_ROW ){
    rc = SQLITE_OK;
    if( piVal ) *piVal = sqlite3_column_int(pStmt, 0);
    if( pz && (*pz = utf8ext_column_dup(pStmt, 0))==0 ) rc = SQLITE_NOMEM;
  }else if( rc==SQLITE_DONE ){
    rc = SQLITE_OK;
  }else{
    rc = utf8ext_job_sql_error(pJob, rc);
  }
  sqlite3_finalize(pStmt);
  return rc;
}

/*
** Refuse a schema whose journal_mode is OFF: no savepoint or transaction
** can be rolled back there, so a refusal or an interrupt half way would
** keep what was written.
*/
static int refuse_journal_off(repair_job *pJob){
  char *zMode = 0;
  int rc = job_pragma(pJob, "journal_mode", 0, &zMode);
  if( rc==SQLITE_OK && zMode && sqlite3_stricmp(zMode, "off")==0 ){
    rc = utf8ext_job_error(pJob, SQLITE_ERROR,
                           "database \"%w\" has journal_mode=OFF,"
        " so a call that fails or is interrupted half way could not be"
        " rolled back; set PRAGMA \"%w\".journal_mode=DELETE (or WAL) first",
        pJob->zSchema, pJob->zSchema);
  }
  sqlite3_free(zMode);
  return rc;
}

/* Mix a NUL-terminated string (NULL as one byte) into a 64-bit hash. */
static sqlite3_uint64 fk_mix(sqlite3_uint64 h, const unsigned char *z){
  if( z==0 ) return (h ^ 0xFF) * 0x100000001B3ull;
  do{ h = (h ^ *z) * 0x100000001B3ull; }while( *z++ );
  return h;
}

/* qsort() and bsearch() order of 64-bit hashes. */
static int fk_cmp(const void *a, const void *b){
  sqlite3_uint64 x = *(const sqlite3_uint64*)a, y = *(const sqlite3_uint64*)b;
  return (x>y) - (x<y);
}

/*
** The violations PRAGMA foreign_key_check reports in the job's schema, a
** sorted array of hashes, one per violation: of (table, rowid, foreign
** key). A child WITHOUT ROWID has no rowid: its violations of one foreign
** key are told apart by their order, so only their number compares.
*/
static int fk_violations(repair_job *pJob, sqlite3_uint64 **pa,
                         sqlite3_int64 *pn){
  sqlite3_stmt *pStmt;
  sqlite3_uint64 *a = 0;
  sqlite3_int64 n = 0, nAlloc = 0, nNoRowid = 0;
  int rc = utf8ext_job_prepare(pJob,
                               sqlite3_mprintf("PRAGMA \"%w\".foreign_key_check",
                                            pJob->zSchema), &pStmt);
  *pa = 0;
  *pn = 0;
  if( rc!=SQLITE_OK ) return rc;
  while( (rc = sqlite3_step(pStmt))==SQLITE_ROW ){
    sqlite3_uint64 h = 0xCBF29CE484222325ull;
    char zNum[24];
    h = fk_mix(h, sqlite3_column_text(pStmt, 0));
    if( sqlite3_column_type(pStmt, 1)==SQLITE_NULL ){
      sqlite3_snprintf(sizeof(zNum), zNum, "#%lld", nNoRowid++);
    }else{
      sqlite3_snprintf(sizeof(zNum), zNum, "%lld", sqlite3_column_int64(pStmt,
                                                                        1));
    }
    h = fk_mix(h, (const unsigned char*)zNum);
    h = fk_mix(h, sqlite3_column_text(pStmt, 3));
    if( n==nAlloc ){
      sqlite3_int64 nNew = nAlloc ? 2*nAlloc : 16;
      sqlite3_uint64 *aNew = sqlite3_realloc64(a, sizeof(*a)*nNew);
      if( aNew==0 ){ rc = SQLITE_NOMEM; break; }
      a = aNew;
      nAlloc = nNew;
    }
    a[n++] = h;
  }
  if( rc==SQLITE_DONE ) rc = SQLITE_OK;
  else if( rc!=SQLITE_NOMEM ) rc = utf8ext_job_sql_error(pJob, rc);
  sqlite3_finalize(pStmt);
  if( rc!=SQLITE_OK ){
    sqlite3_free(a);
    return rc;
  }
  if( n>1 ) qsort(a, (size_t)n, sizeof(*a), fk_cmp);
  *pa = a;
  *pn = n;
  return SQLITE_OK;
}

/*
** The rescue: a statement that writes to the log's schema and changes
** nothing (see the top of this file). It is long on purpose: a progress
** handler may stop a statement on its way out, once its work is done, and
** then SQLite rolls nothing back; an INSERT of none of a hundred thousand
** rows of a CTE (whatever the log holds) makes it stop the rescue half
** way, which does. Prepared before the transaction
** begins when the log exists (not even prepare works under an interrupt);
** before that the log's CREATE stands in for it. *ppStmt is left NULL
** when it cannot be prepared.
*/
static void job_prepare_rescue(repair_job *pJob){
  char *zSql;
  if( pJob->pRescue || pJob->bNoLog ) return;
  zSql = sqlite3_mprintf("WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL"
      " SELECT i+1 FROM c WHERE i<100000) INSERT INTO \"%w\"."
      UTF8EXT_LOG_TABLE "(tbl, col, original, repaired, method)"
      " SELECT '', '', x'', x'', '' FROM c WHERE i<0", pJob->zSchema);
  if( zSql && sqlite3_prepare_v2(pJob->db, zSql, -1, &pJob->pRescue,
                                 0)!=SQLITE_OK ){
    sqlite3_finalize(pJob->pRescue);
    pJob->pRescue = 0;
  }
  sqlite3_free(zSql);
}

/*
** What the transaction needs ready before it begins: with a log, the
** write that takes the lock (DELETE FROM it WHERE 0) and the rescue;
** without one, the log's CREATE, which does both until the log exists.
*/
static int job_prepare_log(repair_job *pJob, int bLogExists){
  if( bLogExists ){
    int rc = utf8ext_job_prepare(pJob, sqlite3_mprintf("DELETE FROM \"%w\"."
        UTF8EXT_LOG_TABLE " WHERE 0", pJob->zSchema), &pJob->pLock);
    if( rc==SQLITE_OK ){
      job_prepare_rescue(pJob);
      if( pJob->pRescue==0 ){
        /* SQLite's error; none when its SQL could not even be made */
        int rc2 = sqlite3_errcode(pJob->db);
        rc = rc2==SQLITE_OK ? SQLITE_NOMEM : utf8ext_job_sql_error(pJob, rc2);
      }
    }
    return rc;
  }
  return utf8ext_job_prepare(pJob, sqlite3_mprintf(LOG_CREATE, pJob->zSchema),
                    &pJob->pLogCreate);
}

/*
** True if an interrupt in force is sqlite3_interrupt()'s: it lasts until
** the calling statement ends, and then not even sqlite3_prepare() works. A
** progress handler's stops only the statement it was called for.
*/
static int interrupt_lasts(sqlite3 *db){
  sqlite3_stmt *p = 0;
  int rc = sqlite3_prepare_v2(db, "SELECT 1", -1, &p, 0);
  sqlite3_finalize(p);
  return rc==SQLITE_INTERRUPT;
}

/* True if rc, from RELEASE or ROLLBACK TO, says there is no such savepoint. */
static int no_such_savepoint(sqlite3 *db, int rc){
  return rc==SQLITE_ERROR
      && sqlite3_strnicmp(sqlite3_errmsg(db), "no such savepoint", 17)==0;
}

/*
** RELEASE the job's savepoint. A progress handler may stop RELEASE before
** it takes effect or after (SQLite calls it on the way out too), so it is
** run until it succeeds or there is no such savepoint any more (the name
** is this call's own). SQLITE_OK when it is gone.
*/
static int job_release(repair_job *pJob){
  char *zSql = sqlite3_mprintf("RELEASE \"%w\"", pJob->zSavepoint);
  int i, rc = SQLITE_NOMEM;
  for(i=0; zSql && i<JOB_ROLLBACK_TRIES; i++){
    rc = sqlite3_exec(pJob->db, zSql, 0, 0, 0);
    if( rc==SQLITE_OK || no_such_savepoint(pJob->db,
                                           rc) ){ rc = SQLITE_OK; break; }
    if( interrupt_lasts(pJob->db) ) break;
  }
  sqlite3_free(zSql);
  return rc;
}

/*
** Open the job's transaction: BEGIN IMMEDIATE, or a savepoint of a name
** no other call uses. A BEGIN that reports an error may have begun all
** the same (a progress handler stopped it on its way out): autocommit
** says. A SAVEPOINT that reports an error is released if it was made.
*/
static int job_open_transaction(repair_job *pJob){
  int rc;
  if( pJob->bAutocommit ){
    rc = sqlite3_exec(pJob->db, "BEGIN IMMEDIATE", 0, 0, 0);
    if( !sqlite3_get_autocommit(pJob->db) ) pJob->eTxn = JOB_TXN_OWN;
    return rc==SQLITE_OK ? rc : utf8ext_job_sql_error(pJob, rc);
  }
  sqlite3_snprintf(sizeof(pJob->zSavepoint), pJob->zSavepoint,
                   pJob->bNoLog ? "utf8ext_guard_%p" : "utf8ext_repair_%p",
                   (void*)pJob);
  {
    char *zSql = sqlite3_mprintf("SAVEPOINT \"%w\"", pJob->zSavepoint);
    if( zSql==0 ) return SQLITE_NOMEM;
    rc = sqlite3_exec(pJob->db, zSql, 0, 0, 0);
    sqlite3_free(zSql);
  }
  if( rc==SQLITE_OK ){
    pJob->eTxn = JOB_TXN_SAVEPOINT;
    return rc;
  }
  rc = utf8ext_job_sql_error(pJob, rc);
  job_release(pJob);
  return rc;
}

/*
** Take the write lock on the job's schema and have the log: a write that
** changes nothing, or the log's CREATE. In the user's transaction this is
** the first write; BEGIN IMMEDIATE already holds the lock.
*/
static int job_take_log(repair_job *pJob){
  int rc = utf8ext_job_step_write(pJob->pLock ? pJob->pLock : pJob->pLogCreate);
  /* the CREATE may have run though a progress handler stopped it on its
  ** way out: then the real rescue can be prepared now */
  if( pJob->pLogCreate ) job_prepare_rescue(pJob);
  if( rc!=SQLITE_OK ) return utf8ext_job_sql_error(pJob, rc);
  pJob->bLog = 1;
  return SQLITE_OK;
}

void utf8ext_job_renew_rescue(repair_job *pJob){
  sqlite3_stmt *pNew = 0;
  pJob->bRescueStale = 1;
  if( pJob->zRescue==0 ) return;
  if( sqlite3_prepare_v2(pJob->db, pJob->zRescue, -1, &pNew, 0)==SQLITE_OK ){
    sqlite3_finalize(pJob->pRescue);
    pJob->pRescue = pNew;
    pJob->bRescueStale = 0;
  }else{
    /* a trigger of the table calls a function this connection lacks, or
    ** an interrupt: the old one is kept, or there is none */
    sqlite3_finalize(pNew);
  }
}

int utf8ext_job_begin_nolog(repair_job *pJob, char *zRescue){
  int rc;
  pJob->bNoLog = 1;
  pJob->zRescue = zRescue;
  pJob->bAutocommit = sqlite3_get_autocommit(pJob->db);
  rc = refuse_write_context(pJob);
  if( rc!=SQLITE_OK ) return rc;
  utf8ext_job_renew_rescue(pJob);
  /* PRAGMA journal_mode counts as a write: inside the transaction */
  rc = job_open_transaction(pJob);
  if( rc==SQLITE_OK ) rc = refuse_journal_off(pJob);
  return rc;
}

/* What the job must know of foreign keys before it writes. */
static int job_fk_baseline(repair_job *pJob){
  int hi = 0;

  if( !pJob->bForeignKeys ) return SQLITE_OK;
  sqlite3_db_status(pJob->db, SQLITE_DBSTATUS_DEFERRED_FKS,
                    &pJob->nDeferredBefore, &hi, 0);
  /* the status says only "none" or "some": with some pending already
  ** (the user's own), count them, to tell whether the call adds more */
  if( pJob->nDeferredBefore ){
    return fk_violations(pJob, &pJob->aFkBefore, &pJob->nFkBefore);
  }
  return SQLITE_OK;
}

int utf8ext_job_begin(repair_job *pJob, int bCreateLog, int *pbNoLog){
  int rc, bExists = 0;
  if( pbNoLog ) *pbNoLog = 0;
  pJob->bAutocommit = sqlite3_get_autocommit(pJob->db);
  rc = refuse_write_context(pJob);
  if( rc==SQLITE_OK ) rc = utf8ext_log_exists(pJob, &bExists);
  if( rc!=SQLITE_OK ) return rc;
  if( !bExists && !bCreateLog ){
    *pbNoLog = 1;
    return SQLITE_OK;
  }
  rc = job_prepare_log(pJob, bExists);
  if( rc==SQLITE_OK ) rc = job_pragma(pJob, "foreign_keys", &pJob->bForeignKeys,
                                      0);
  if( rc!=SQLITE_OK ) return rc;
  if( pJob->bAutocommit ){
    /* PRAGMA journal_mode counts as a write (stopped, it makes SQLite roll
    ** back), so it runs inside the job's transaction, before any write */
    rc = job_open_transaction(pJob);
    if( rc==SQLITE_OK ) rc = refuse_journal_off(pJob);
    if( rc==SQLITE_OK ) rc = job_take_log(pJob);
  }else{
    rc = refuse_journal_off(pJob);
    if( rc==SQLITE_OK ) rc = job_open_transaction(pJob);
    if( rc==SQLITE_OK ) rc = job_take_log(pJob);
  }
  if( rc==SQLITE_OK ) rc = job_fk_baseline(pJob);
  return rc;
}

/* ---- the call: end ---------------------------------------------------------- */

/*
** Refuse a result that leaves a deferred foreign key unresolved that was
** not before the call. In its own transaction any pending one is the
** call's; in the user's, SQLite's status tells only whether there are
** any, so with some already pending every violation now must have been
** there before: a repair that orphans one row is refused even where it
** happens to adopt another (the user's own orphan).
*/
static int job_check_deferred_fks(repair_job *pJob){
  int now = 0, hi = 0, rc;
  sqlite3_uint64 *a = 0;
  sqlite3_int64 n = 0, i;
  if( !pJob->bForeignKeys ) return SQLITE_OK;
  sqlite3_db_status(pJob->db, SQLITE_DBSTATUS_DEFERRED_FKS, &now, &hi, 0);
  if( now==0 ) return SQLITE_OK;
  if( pJob->nDeferredBefore ){
    rc = fk_violations(pJob, &a, &n);
    if( rc!=SQLITE_OK ) return rc;
    for(i=0; i<n; i++){
      if( pJob->nFkBefore==0 || bsearch(&a[i], pJob->aFkBefore,
              (size_t)pJob->nFkBefore, sizeof(a[i]), fk_cmp)==0 ) break;
    }
    sqlite3_free(a);
    if( i==n ) return SQLITE_OK;
  }
  return utf8ext_job_error(pJob, SQLITE_CONSTRAINT,
                           "a deferred FOREIGN KEY constraint"
                  " would fail");
}

/*
** Step the rescue: a stopped write makes SQLite roll everything back.
** SQLITE_OK when it ran, or there was none to step.
*/
static int job_rescue(repair_job *pJob){
  if( pJob->pLogCreate ) job_prepare_rescue(pJob);   /* a log made since? */
  if( pJob->pRescue ) return utf8ext_job_step_write(pJob->pRescue);
  if( pJob->pLogCreate ) return utf8ext_job_step_write(pJob->pLogCreate);
  return SQLITE_OK;
}

/*
** Roll the job's transaction back, whatever stops statements from running
** (see the top of this file), and set pJob->eEnd to what became of it.
** ROLLBACK and ROLLBACK TO may be stopped by a progress handler before
** they take effect or after; both can run again harmlessly.
*/
static void job_rollback(repair_job *pJob){
  sqlite3 *db = pJob->db;
  char *zSql = sqlite3_mprintf("ROLLBACK TO \"%w\"", pJob->zSavepoint);
  int i;
  for(i=0; i<JOB_ROLLBACK_TRIES; i++){
    int rc;
    if( sqlite3_get_autocommit(db) ){
      /* SQLite rolled everything back (a stopped write), or ROLLBACK did */
      pJob->eEnd = pJob->bAutocommit ? JOB_END_CLEAN : JOB_END_TXN_LOST;
      pJob->eTxn = JOB_TXN_NONE;
      sqlite3_free(zSql);
      return;
    }
    if( pJob->eTxn==JOB_TXN_OWN ){
      rc = sqlite3_exec(db, "ROLLBACK", 0, 0, 0);
    }else{
      rc = zSql ? sqlite3_exec(db, zSql, 0, 0, 0) : SQLITE_NOMEM;
      if( rc==SQLITE_OK ){
        /* rolled back; a savepoint that cannot be released holds nothing
        ** and ends with the user's transaction */
        job_release(pJob);
        pJob->eEnd = JOB_END_CLEAN;
        pJob->eTxn = JOB_TXN_NONE;
        sqlite3_free(zSql);
        return;
      }
    }
    /* Nothing runs: make SQLite roll back itself. If the write does run
    ** (a progress handler let it), it changed nothing: try again. */
    if( rc!=SQLITE_OK && (i>=2 || interrupt_lasts(db)) ){
      rc = job_rescue(pJob);
      if( rc!=SQLITE_OK && pJob->eTxn==JOB_TXN_SAVEPOINT
       && !sqlite3_get_autocommit(db) && !pJob->bRescueStale ){
        /* Stopped once it runs, the rescue makes SQLite roll back; it did
        ** not run, so it could not start: SQLite had expired it, and in
        ** the call only a ROLLBACK TO that ran does that (undoing a schema
        ** change of the transaction expires every statement), though a
        ** progress handler stopped it on its way out. So it is back. (A
        ** stale rescue, expired by a change of the temp schema, shows
        ** nothing: see JOBS WITHOUT A LOG.) */
        job_release(pJob);
        pJob->eEnd = JOB_END_CLEAN;
        pJob->eTxn = JOB_TXN_NONE;
        sqlite3_free(zSql);
        return;
      }
    }
  }
  sqlite3_free(zSql);
  pJob->eEnd = sqlite3_get_autocommit(db)
             ? (pJob->bAutocommit ? JOB_END_CLEAN : JOB_END_TXN_LOST)
             : JOB_END_STUCK;
}

/* Free what the job holds for its transaction. */
static void job_free_statements(repair_job *pJob){
  utf8ext_fp_close(pJob);
  utf8ext_job_statements_clear(pJob);
  sqlite3_finalize(pJob->pLogInsert);
  sqlite3_finalize(pJob->pRescue);
  sqlite3_finalize(pJob->pLock);
  sqlite3_finalize(pJob->pLogCreate);
  pJob->pLogInsert = pJob->pRescue = pJob->pLock = pJob->pLogCreate = 0;
}

int utf8ext_job_end(repair_job *pJob, int rc){
  /* statements of the work: none may run on past its transaction */
  utf8ext_fp_close(pJob);
  utf8ext_job_statements_clear(pJob);
  sqlite3_finalize(pJob->pLogInsert);
  pJob->pLogInsert = 0;
  if( pJob->eTxn==JOB_TXN_NONE ){
    /* no transaction of the job's began, so nothing was written; but a
    ** statement that counts as a write (PRAGMA journal_mode) may have been
    ** stopped, and SQLite then rolled back the user's */
    if( !pJob->bAutocommit && sqlite3_get_autocommit(pJob->db) ){
      pJob->eEnd = JOB_END_TXN_LOST;
    }
    job_free_statements(pJob);
    return rc;
  }
  if( rc==SQLITE_OK && pJob->nChanged>0 ) rc = job_check_deferred_fks(pJob);
  /* a job without a log commits whatever it changed: it has no log
  ** created for nothing to take back */
  if( rc==SQLITE_OK && (pJob->nChanged>0 || pJob->bNoLog) ){
    if( pJob->eTxn==JOB_TXN_OWN ){
      /* COMMIT stopped on its way out (a progress handler) has committed:
      ** autocommit says; any other error with autocommit back on was
      ** SQLite rolling back */
      int rc2 = sqlite3_exec(pJob->db, "COMMIT", 0, 0, 0);
      if( rc2==SQLITE_OK || ((rc2&0xFF)==SQLITE_INTERRUPT
                             && sqlite3_get_autocommit(pJob->db)) ){
        rc2 = SQLITE_OK;
      }
      if( rc2!=SQLITE_OK ) rc = utf8ext_job_sql_error(pJob, rc2);
    }else{
      /* a savepoint that cannot be released (sqlite3_interrupt stops every
      ** statement) holds the whole of the call's work, checked: it is
      ** kept, and ends with the user's transaction */
      job_release(pJob);
    }
    if( rc==SQLITE_OK ){
      pJob->eTxn = JOB_TXN_NONE;
      job_free_statements(pJob);
      return SQLITE_OK;
    }
  }
  /* a failure, or nothing changed (a log created for nothing goes too) */
  job_rollback(pJob);
  job_free_statements(pJob);
  return rc;
}

/*
** Why the call failed, for its message: SQLite's own words for what
** stopped it from outside (an interrupt, a full disk, another writer),
** which no row or column caused; else the job's message.
*/
static const char *job_why(repair_job *pJob, int rc){
  switch( rc & 0xFF ){
    case SQLITE_INTERRUPT:
    case SQLITE_FULL:
    case SQLITE_IOERR:
    case SQLITE_READONLY:
      return sqlite3_errstr(rc);
    case SQLITE_BUSY:
    case SQLITE_LOCKED:
      if( pJob->bAutocommit ){
        return "database is locked: another connection kept the write lock"
               " (or, to commit, its readers) for longer than PRAGMA"
               " busy_timeout allows";
      }
      return "database is locked: another connection holds the write lock,"
             " and a transaction that has already read cannot wait for it"
             " (SQLite calls no busy handler there); call it outside a"
             " transaction, or begin the transaction with BEGIN IMMEDIATE";
  }
  return pJob->zErr ? pJob->zErr : sqlite3_errstr(rc);
}

void utf8ext_job_result(sqlite3_context *ctx, repair_job *pJob, int rc){
  if( rc==SQLITE_OK ){
    sqlite3_result_int64(ctx, pJob->nChanged);
  }else if( rc==SQLITE_NOMEM ){
    sqlite3_result_error_nomem(ctx);
  }else{
    /* Names and SQLite's own messages may carry any bytes: escaped, the
    ** message is well-formed UTF-8 whatever they are. */
    const char *zWhy = job_why(pJob, rc);
    sqlite3_str *s = sqlite3_str_new(0);
    char *zMsg;
    sqlite3_str_appendf(s, "%s: ", pJob->zFunc);
    utf8ext_append_escaped(s, (const unsigned char*)zWhy,
                           (sqlite3_int64)strlen(zWhy));
    switch( pJob->eEnd ){
      case JOB_END_TXN_LOST:
        sqlite3_str_appendall(s, "; SQLite rolled back the whole transaction,"
            " with the changes made in it before this call");
        break;
      case JOB_END_STUCK:
        sqlite3_str_appendall(s, "; what it changed could not be rolled back"
            " and is still in the open transaction: run ROLLBACK");
        break;
      default:
        sqlite3_str_appendall(s, "; nothing was changed");
        break;
    }
    zMsg = sqlite3_str_finish(s);
    if( zMsg==0 ){
      sqlite3_result_error_nomem(ctx);
    }else{
      utf8ext_result_error(ctx, zMsg, rc);
      sqlite3_free(zMsg);
    }
  }
  sqlite3_free(pJob->zSchema);
  sqlite3_free(pJob->zErr);
  sqlite3_free(pJob->zAt);
  sqlite3_free(pJob->aMoji);
  sqlite3_free(pJob->aFkBefore);
  sqlite3_free(pJob->zMethodBuf);
  pJob->zMethodBuf = 0;
  sqlite3_free(pJob->zRescue);
  pJob->zRescue = 0;
  {
    int g;
    for(g=0; g<UTF8_GUESS_N; g++){ sqlite3_free(pJob->azAuto[g]); pJob->azAuto[g] = 0; }
  }
  pJob->zSchema = pJob->zErr = pJob->zAt = 0;
  pJob->aMoji = 0;
  pJob->aFkBefore = 0;
}

int utf8ext_job_name_arg(repair_job *pJob, sqlite3_value *v, const char *zArg,
                 const char **pz){
  *pz = 0;
  if( sqlite3_value_type(v)==SQLITE_NULL ) return SQLITE_OK;
  *pz = (const char*)sqlite3_value_text(v);
  if( *pz==0 ) return SQLITE_NOMEM;
  if( (int)strlen(*pz)!=sqlite3_value_bytes(v) ){
    return utf8ext_job_error(pJob, SQLITE_ERROR,
                             "the %s argument contains a NUL byte",
                    zArg);
  }
  return SQLITE_OK;
}
