/*
** utf8ext_undo.c - utf8_undo([TABLE [, SCHEMA]]): put back every original
** that utf8_repair logged for TABLE (for every table when TABLE is NULL or
** omitted), newest first, byte for byte, and remove exactly those log rows;
** returns how many values it restored. The log, the promises and the
** transaction are described in utf8ext_repair.c and utf8ext_job.c.
**
** HOW IT WORKS
**
** The log is read newest first by one SELECT, and each row of it is undone
** as it comes: the entries a run wrote for one row (consecutive ids, one
** method and time, the same locator) are put back by one UPDATE, read back,
** and deleted from the log. So undo holds one row's entries at a time,
** whatever the size of the log. What a table needs (its shape, its
** refusals, the columns other tables reference with ON UPDATE actions, the
** statements for a set of columns) is learnt once per table, not per row.
*/
#include "utf8ext_job.h"

#include <string.h>

/*
** One row of the log, copied out of the log's SELECT (which moves on).
*/
typedef struct log_entry log_entry;
struct log_entry {
  sqlite3_int64 id;           /* The log row's id */
  char *zTbl, *zCol;          /* Table and column */
  int bRid;                   /* True if iRid holds a rowid */
  sqlite3_int64 iRid;         /* The rowid */
  unsigned char *aKey;        /* The encoded key, when no rowid */
  sqlite3_int64 nKey;
  unsigned char *aOrig;       /* The original, as stored */
  sqlite3_int64 nOrig;
  unsigned char *aRep;        /* What the repair wrote, as stored */
  sqlite3_int64 nRep;
  unsigned char *aHash;       /* The row's fingerprint, or NULL */
  sqlite3_int64 nHash;
  char *zPk;                  /* The key's literal, for messages */
  char *zMethod, *zAt;        /* The run's method and time */
};

static void entry_clear(log_entry *e){
  sqlite3_free(e->zTbl);      /* the one allocation that holds them all */
  memset(e, 0, sizeof(*e));
}

/* The columns of the log's SELECT, in order. */
#define UNDO_LOG_SELECT "SELECT id, tbl, col, rid, key, original, repaired," \
                        " pk, rowhash, method, at"

/*
** Copy the log row pStmt is on into e: its texts and blobs into one
** allocation (zTbl first), as undo reads every row of the log.
*/
static int entry_read(sqlite3_stmt *pStmt, log_entry *e){
  /* result columns: five texts, then four blobs */
  static const int aiCol[] = { 1, 2, 7, 9, 10, 4, 5, 6, 8 };
  const void *az[9];
  sqlite3_int64 an[9], nAll = 0;
  unsigned char *pAll, *pOut[9];
  int k;
  memset(e, 0, sizeof(*e));
  e->id = sqlite3_column_int64(pStmt, 0);
  e->bRid = sqlite3_column_type(pStmt, 3)!=SQLITE_NULL;
  e->iRid = sqlite3_column_int64(pStmt, 3);
  for(k=0; k<9; k++){
    int bNull = sqlite3_column_type(pStmt, aiCol[k])==SQLITE_NULL;
    az[k] = k<5 ? (const void*)sqlite3_column_text(pStmt, aiCol[k])
                : sqlite3_column_blob(pStmt, aiCol[k]);
    an[k] = sqlite3_column_bytes(pStmt, aiCol[k]);
    /* out of memory: a text that is not NULL, or a blob of some bytes,
    ** with no pointer (an empty blob has none) */
    if( az[k]==0 && (k<5 ? !bNull : an[k]>0) ) return SQLITE_NOMEM;
    if( bNull ) az[k] = 0;
    nAll += an[k] + 1;
  }
  /* tbl, col, method and at are NOT NULL in the log; pk may be NULL */
  if( az[0]==0 || az[1]==0 || az[3]==0 || az[4]==0 ) return SQLITE_CORRUPT;
  pAll = sqlite3_malloc64(nAll);
  if( pAll==0 ) return SQLITE_NOMEM;
  for(k=0; k<9; k++){
    pOut[k] = pAll;
    if( an[k]>0 ) memcpy(pAll, az[k], (size_t)an[k]);
    pAll[an[k]] = 0;
    pAll += an[k] + 1;
  }
  e->zTbl = (char*)pOut[0];
  e->zCol = (char*)pOut[1];
  e->zPk = az[2] ? (char*)pOut[2] : 0;
  e->zMethod = (char*)pOut[3];
  e->zAt = (char*)pOut[4];
  if( !e->bRid ){ e->aKey = pOut[5]; e->nKey = an[5]; }
  e->aOrig = pOut[6]; e->nOrig = an[6];
  e->aRep = pOut[7]; e->nRep = an[7];
  if( az[8] ){ e->aHash = pOut[8]; e->nHash = an[8]; }
  return SQLITE_OK;
}

/*
** True if entries a and b were logged for the same row of the same table
** by one run: the same method ('auto' logs "auto:<method>" per value),
** time and fingerprint (undo_all() also asks
** that their ids follow each other; each run's entries start after a gap
** in the ids). Two runs (a 'fix' then a 'mojibake') are undone by an
** UPDATE each, the newer first: the older one's key may since be another
** row's (a key the newer run repaired), and a row found by an unstable
** rowid has a fingerprint per run, each of the row as its run left it.
*/
static int same_method(const char *a, const char *b){
  /* an 'auto' run logs each value's own method, "auto:..." */
  return strcmp(a, b)==0
      || (strncmp(a, "auto:", 5)==0 && strncmp(b, "auto:", 5)==0);
}

static int same_row(const log_entry *a, const log_entry *b){
  if( strcmp(a->zTbl, b->zTbl)!=0 || a->bRid!=b->bRid ) return 0;
  if( !same_method(a->zMethod, b->zMethod) || strcmp(a->zAt, b->zAt)!=0 ) return 0;
  if( (a->aHash==0)!=(b->aHash==0) ) return 0;
  if( a->aHash && (a->nHash!=b->nHash
                   || memcmp(a->aHash, b->aHash, (size_t)a->nHash)!=0) ) return 0;
  if( a->bRid ) return a->iRid==b->iRid;
  return a->nKey==b->nKey && memcmp(a->aKey, b->aKey, (size_t)a->nKey)==0;
}

/*
** The table the entries at hand belong to, learnt once: its shape, its
** refusals, and why a column may not change (utf8ext_fk_update_actions).
*/
typedef struct undo_table undo_table;
struct undo_table {
  utf8ext_table *p;           /* The table; NULL before the first entry */
  char **azFkWhy;             /* Per column, an ON UPDATE action's refusal */
  int *aiCol;                 /* Scratch: the columns of the row at hand */
  unsigned char **azOrig;     /* Scratch: their originals */
  sqlite3_int64 *anOrig;
};

static void undo_table_free(repair_job *pJob, undo_table *t){
  if( t->p ) utf8ext_fk_free(t->azFkWhy, t->p->nCol);
  utf8ext_table_free(t->p);
  sqlite3_free(t->aiCol);
  sqlite3_free(t->azOrig);
  sqlite3_free(t->anOrig);
  memset(t, 0, sizeof(*t));
  utf8ext_fp_close(pJob);
  utf8ext_job_statements_clear(pJob);
}

/* Make t the table zTbl of the job's schema, if it is not already. */
static int undo_table_load(repair_job *pJob, undo_table *t, const char *zTbl){
  int rc;
  if( t->p && strcmp(t->p->zName, zTbl)==0 ) return SQLITE_OK;
  undo_table_free(pJob, t);
  rc = utf8ext_table_load(pJob->db, pJob->zSchema, zTbl, -1, &t->p, &pJob->zErr);
  if( rc==SQLITE_OK ) rc = utf8ext_table_load_key(pJob->db, t->p, &pJob->zErr);
  if( rc==SQLITE_OK ) rc = utf8ext_refuse_update_triggers(pJob, t->p);
  if( rc==SQLITE_OK ) rc = utf8ext_fk_update_actions(pJob, t->p, &t->azFkWhy);
  if( rc==SQLITE_OK ) rc = utf8ext_fp_open(pJob, t->p);
  if( rc==SQLITE_OK ){
    int n = t->p->nCol+1;
    t->aiCol = sqlite3_malloc64(sizeof(int)*n);
    t->azOrig = sqlite3_malloc64(sizeof(unsigned char*)*n);
    t->anOrig = sqlite3_malloc64(sizeof(sqlite3_int64)*n);
    if( !t->aiCol || !t->azOrig || !t->anOrig ) rc = SQLITE_NOMEM;
  }
  return rc;
}

/*
** Bind the locator of log entry e to pStmt from parameter iParam on; the
** key parts of columns in aiCol[0..n) get az[i] (stored bytes) instead
** when az is not NULL.
*/
static int undo_bind_locator(repair_job *pJob, const utf8ext_table *p,
                             const log_entry *e, sqlite3_stmt *pStmt,
                             int iParam, const int *aiCol,
                             unsigned char *const *az, const sqlite3_int64 *an,
                             int n){
  int i, k, rc;
  if( e->bRid ){
    if( p->zRowid==0 ){
      return utf8ext_job_error_at(pJob, SQLITE_ERROR, p, -1, e->zPk,
          "the log finds the row by rowid, which the table no longer has");
    }
    return sqlite3_bind_int64(pStmt, iParam, e->iRid);
  }
  if( p->zRowid || p->nPk==0 ){
    return utf8ext_job_error_at(pJob, SQLITE_ERROR, p, -1, e->zPk,
        "the log finds the row by its primary key, which has changed");
  }
  rc = utf8ext_key_bind(pStmt, iParam, e->aKey, e->nKey, p->nPk, p->eTextEnc);
  if( rc!=SQLITE_OK ){
    return utf8ext_job_error_at(pJob, SQLITE_ERROR, p, -1, e->zPk,
        "log row %lld has a key that utf8_undo cannot read", e->id);
  }
  for(i=0; az && i<n; i++){
    for(k=0; k<p->nPk; k++){
      if( p->aiPk[k]==aiCol[i] ){
        sqlite3_bind_text64(pStmt, iParam+k, (const char*)az[i], an[i],
                            SQLITE_STATIC, (unsigned char)p->eTextEnc);
      }
    }
  }
  return SQLITE_OK;
}

/* Step 1: the columns of the entries, each an ordinary column that may change. */
static int undo_columns(repair_job *pJob, undo_table *t, const log_entry *a,
                        int n){
  const utf8ext_table *p = t->p;
  int i, c;
  for(i=0; i<n; i++){
    for(c=0; c<p->nCol && sqlite3_stricmp(p->azCol[c], a[i].zCol)!=0; c++){}
    if( c==p->nCol || p->aGenerated[c] ){
      return utf8ext_job_error_at(pJob, SQLITE_ERROR, p, -1, a[i].zPk,
                        "column \"%w\" is no longer an ordinary column",
                        a[i].zCol);
    }
    if( t->azFkWhy && t->azFkWhy[c] ){
      return utf8ext_job_error_at(pJob, SQLITE_ERROR, p, c, 0, "%s",
                                  t->azFkWhy[c]);
    }
    t->aiCol[i] = c;
    t->azOrig[i] = a[i].aOrig;
    t->anOrig[i] = a[i].nOrig;
  }
  return SQLITE_OK;
}

/* Step 2: the row must hold exactly what the repair wrote. */
static int undo_check_values(repair_job *pJob, undo_table *t,
                             const log_entry *a, int n, sqlite3_stmt *pRead){
  const utf8ext_table *p = t->p;
  int i, rc = undo_bind_locator(pJob, p, &a[0], pRead, 1, 0, 0, 0, 0);
  if( rc==SQLITE_OK ) rc = utf8ext_job_read_one_row(pJob, p, pRead, a[0].zPk);
  for(i=0; rc==SQLITE_OK && i<n; i++){
    if( !utf8ext_job_stored_equals(pRead, UTF8EXT_SCAN_COL(p, i), p->eTextEnc,
                           a[i].aRep, a[i].nRep) ){
      rc = utf8ext_job_error_at(pJob, SQLITE_ERROR, p, t->aiCol[i], a[i].zPk,
          "the value is no longer what utf8_repair wrote (log row %lld); "
          "it was changed since, and undo will not overwrite that",
          a[i].id);
    }
  }
  sqlite3_reset(pRead);
  return rc;
}

/*
** Step 3: a row found by an unstable rowid must still be the row
** repaired: its fingerprint over the columns the table had then.
*/
static int undo_check_fingerprint(repair_job *pJob, undo_table *t,
                                  const log_entry *a, int n){
  const utf8ext_table *p = t->p;
  int i, rc;
  for(i=0; i<n; i++){
    unsigned char aFp[FP_HASH_BYTES];
    int nCol = p->nCol;
    if( a[i].aHash==0 ){
      /* logged by a stable rowid (INTEGER PRIMARY KEY): the table has
      ** been rebuilt without one since, and that rowid may now be any
      ** row's */
      if( a[i].bRid && pJob->nFp>0 ){
        return utf8ext_job_error_at(pJob, SQLITE_ERROR, p, -1, a[i].zPk,
                                    "the table was"
            " rebuilt without its INTEGER PRIMARY KEY since the repair (log"
            " row %lld), so the rowid may now find another row; undo will"
            " not guess", a[i].id);
      }
      continue;
    }
    if( pJob->nFp==0 || !a[i].bRid ){
      return utf8ext_job_error_at(pJob, SQLITE_ERROR, p, -1, a[i].zPk,
                                  "the table was"
          " rebuilt since the repair (log row %lld)", a[i].id);
    }
    if( a[i].nHash==FP_BYTES ){
      /* the columns the table had then: ADD COLUMN appends the others */
      const unsigned char *z = a[i].aHash+FP_HASH_BYTES;
      nCol = (int)(((unsigned)z[0]<<24) | ((unsigned)z[1]<<16)
                   | ((unsigned)z[2]<<8) | z[3]);
    }
    rc = utf8ext_row_fingerprint(pJob, p, a[i].iRid, nCol, aFp);
    if( rc!=SQLITE_OK ) return rc;
    if( (a[i].nHash!=FP_HASH_BYTES && a[i].nHash!=FP_BYTES) || nCol>p->nCol
     || memcmp(aFp, a[i].aHash, FP_HASH_BYTES)!=0 ){
      return utf8ext_job_error_at(pJob, SQLITE_ERROR, p, -1, a[i].zPk,
                                  "the row with this"
          " rowid is not the row utf8_repair left (log row %lld): it was"
          " edited since, or VACUUM renumbered the rowids of this table"
          " without INTEGER PRIMARY KEY; undo will not guess", a[i].id);
    }
  }
  return SQLITE_OK;
}

/* Step 4: write the originals back, in one UPDATE of exactly one row. */
static int undo_write(repair_job *pJob, undo_table *t, const log_entry *a,
                      int n, sqlite3_stmt *pUpdate){
  const utf8ext_table *p = t->p;
  int i, rc;
  for(i=0; i<n; i++){
    sqlite3_bind_text64(pUpdate, i+1, (const char*)t->azOrig[i], t->anOrig[i],
                        SQLITE_STATIC, (unsigned char)p->eTextEnc);
  }
  rc = undo_bind_locator(pJob, p, &a[0], pUpdate, n+1, 0, 0, 0, 0);
  if( rc==SQLITE_OK ){
    rc = utf8ext_job_step_write(pUpdate);
    if( rc!=SQLITE_OK ){
      rc = utf8ext_job_error_at(pJob, rc, p, t->aiCol[0], a[0].zPk, "%s",
                      sqlite3_errmsg(pJob->db));
    }else if( sqlite3_changes(pJob->db)!=1 ){
      rc = utf8ext_job_error_at(pJob, SQLITE_ERROR, p, t->aiCol[0], a[0].zPk,
                      "the UPDATE changed %d rows, not 1",
                      sqlite3_changes(pJob->db));
    }
  }
  sqlite3_clear_bindings(pUpdate);
  return rc;
}

/* Step 5: read back, by the key as it is now, every byte. */
static int undo_verify(repair_job *pJob, undo_table *t, const log_entry *a,
                       int n, sqlite3_stmt *pRead){
  const utf8ext_table *p = t->p;
  int i, rc = undo_bind_locator(pJob, p, &a[0], pRead, 1, t->aiCol, t->azOrig,
                                t->anOrig, n);
  if( rc==SQLITE_OK ) rc = utf8ext_job_read_one_row(pJob, p, pRead, a[0].zPk);
  for(i=0; rc==SQLITE_OK && i<n; i++){
    if( !utf8ext_job_stored_equals(pRead, UTF8EXT_SCAN_COL(p, i), p->eTextEnc,
                           t->azOrig[i], t->anOrig[i]) ){
      rc = utf8ext_job_error_at(pJob, SQLITE_ERROR, p, t->aiCol[i], a[i].zPk,
          "it reads back different bytes than the original (log row %lld)",
          a[i].id);
    }
  }
  sqlite3_reset(pRead);
  sqlite3_clear_bindings(pRead);
  return rc;
}

/* Step 6: remove exactly the entries undone from the log. */
static int undo_unlog(repair_job *pJob, const log_entry *a, int n,
                      sqlite3_stmt *pDelete){
  int i, rc = SQLITE_OK;
  for(i=0; rc==SQLITE_OK && i<n; i++){
    sqlite3_bind_int64(pDelete, 1, a[i].id);
    rc = utf8ext_job_step_write(pDelete);
    if( rc!=SQLITE_OK ) rc = utf8ext_job_sql_error(pJob, rc);
    else if( sqlite3_changes(pJob->db)!=1 ){
      rc = utf8ext_job_error(pJob, SQLITE_ERROR,
                             "log row %lld: the DELETE changed %d"
                    " rows, not 1", a[i].id, sqlite3_changes(pJob->db));
    }
  }
  return rc;
}

/*
** Undo the log entries a[0..n), all of one row of one run, in one UPDATE,
** and remove them from the log.
*/
static int undo_row(repair_job *pJob, undo_table *t, const log_entry *a,
                    int n, sqlite3_stmt *pDelete){
  sqlite3_stmt *pUpdate = 0, *pRead = 0;
  int rc = undo_table_load(pJob, t, a[0].zTbl);
  if( rc==SQLITE_OK && n>t->p->nCol ){
    rc = utf8ext_job_error_at(pJob, SQLITE_ERROR, t->p, -1, a[0].zPk,
                              "log rows %lld"
        " on have more columns than the table", a[n-1].id);
  }
  if( rc==SQLITE_OK ) rc = undo_columns(pJob, t, a, n);
  if( rc==SQLITE_OK ){
    rc = utf8ext_job_statements(pJob, t->p, t->aiCol, n, &pUpdate, &pRead);
  }
  if( rc==SQLITE_OK ) rc = undo_check_values(pJob, t, a, n, pRead);
  if( rc==SQLITE_OK ) rc = undo_check_fingerprint(pJob, t, a, n);
  if( rc==SQLITE_OK ) rc = undo_write(pJob, t, a, n, pUpdate);
  if( rc==SQLITE_OK ) rc = undo_verify(pJob, t, a, n, pRead);
  if( rc==SQLITE_OK ) rc = undo_unlog(pJob, a, n, pDelete);
  if( rc==SQLITE_OK ) pJob->nChanged += n;
  return rc;
}

/* True if entry e may join the entries a[0..n) of one row of one run. */
static int joins_row(const log_entry *a, int n, const log_entry *e){
  int k;
  if( n==0 ) return 1;
  if( e->id!=a[n-1].id-1 || !same_row(&a[0], e) ) return 0;
  for(k=0; k<n; k++){
    if( sqlite3_stricmp(a[k].zCol, e->zCol)==0 ) return 0;
  }
  return 1;
}

/* Undo every log entry of zTable (NULL: all) of the job's schema. */
static int undo_all(repair_job *pJob, const char *zTable){
  sqlite3_stmt *pLog = 0, *pDelete = 0;
  log_entry *a = 0;           /* the entries of the row at hand, and one more */
  int n = 0, nAlloc = 0, i;
  undo_table t;
  int rc;

  memset(&t, 0, sizeof(t));
  rc = utf8ext_job_prepare(pJob, sqlite3_mprintf(UNDO_LOG_SELECT
      " FROM \"%w\"." UTF8EXT_LOG_TABLE
      " WHERE ?1 IS NULL OR tbl=?1 COLLATE NOCASE ORDER BY id DESC",
      pJob->zSchema), &pLog);
  if( rc==SQLITE_OK ){
    rc = utf8ext_job_prepare(pJob, sqlite3_mprintf(
        "DELETE FROM \"%w\"." UTF8EXT_LOG_TABLE " WHERE id=?1", pJob->zSchema),
        &pDelete);
  }
  if( rc==SQLITE_OK ) sqlite3_bind_text(pLog, 1, zTable, -1, SQLITE_STATIC);
  /* the entries already read are deleted as the SELECT goes on: SQLite
  ** lets a statement delete the rows a running SELECT has passed */
  while( rc==SQLITE_OK && (rc = sqlite3_step(pLog))==SQLITE_ROW ){
    if( n==nAlloc ){
      log_entry *aNew = sqlite3_realloc64(a, sizeof(log_entry)*(nAlloc+8));
      if( aNew==0 ){ rc = SQLITE_NOMEM; break; }
      a = aNew;
      memset(&a[nAlloc], 0, sizeof(log_entry)*8);
      nAlloc += 8;
    }
    rc = entry_read(pLog, &a[n]);
    if( rc!=SQLITE_OK ){ n++; break; }
    if( !joins_row(a, n, &a[n]) ){
      log_entry e = a[n];
      rc = undo_row(pJob, &t, a, n, pDelete);
      for(i=0; i<n; i++) entry_clear(&a[i]);
      a[0] = e;
      memset(&a[n], 0, sizeof(log_entry));
      n = 0;
    }
    n++;
  }
  if( rc==SQLITE_DONE ){
    rc = n>0 ? undo_row(pJob, &t, a, n, pDelete) : SQLITE_OK;
  }else if( rc!=SQLITE_OK && rc!=SQLITE_NOMEM && pJob->zErr==0 ){
    rc = utf8ext_job_sql_error(pJob, rc);
  }
  for(i=0; i<n; i++) entry_clear(&a[i]);
  sqlite3_free(a);
  sqlite3_finalize(pLog);
  sqlite3_finalize(pDelete);
  undo_table_free(pJob, &t);
  return rc;
}

/*
** After utf8_undo('t') found nothing to undo in the schema SQL's lookup
** gave it (temp, when a temporary table t shadows main.t): the schema
** whose log does hold rows for t, so the call can say where to look.
** NULL when none does.
*/
static char *undo_logged_elsewhere(repair_job *pJob, const char *zTable){
  sqlite3_stmt *pList;
  char *zFound = 0;
  if( sqlite3_prepare_v2(pJob->db, "SELECT name FROM pragma_database_list",
                         -1, &pList, 0)!=SQLITE_OK ){
    return 0;
  }
  while( zFound==0 && sqlite3_step(pList)==SQLITE_ROW ){
    const char *zDb = (const char*)sqlite3_column_text(pList, 0);
    sqlite3_stmt *pCount = 0;
    char *zSql;
    if( zDb==0 || sqlite3_stricmp(zDb, pJob->zSchema)==0 ) continue;
    zSql = sqlite3_mprintf("SELECT 1 FROM \"%w\"." UTF8EXT_LOG_TABLE
                           " WHERE tbl=?1 COLLATE NOCASE LIMIT 1", zDb);
    if( zSql && sqlite3_prepare_v2(pJob->db, zSql, -1, &pCount, 0)==SQLITE_OK ){
      sqlite3_bind_text(pCount, 1, zTable, -1, SQLITE_STATIC);
      if( sqlite3_step(pCount)==SQLITE_ROW ) zFound = sqlite3_mprintf("%s", zDb);
    }
    sqlite3_finalize(pCount);
    sqlite3_free(zSql);
  }
  sqlite3_finalize(pList);
  return zFound;
}

/*
** utf8_undo([TABLE [, SCHEMA]]): see the top of this file.
*/
void utf8ext_undo_func(sqlite3_context *ctx, int argc, sqlite3_value **argv){
  repair_job job;
  const char *zTable = 0, *zSchema = 0;
  int rc = SQLITE_OK, bNoLog = 0;

  memset(&job, 0, sizeof(job));
  job.db = sqlite3_context_db_handle(ctx);
  job.zFunc = "utf8_undo";
  if( argc>=1 ) rc = utf8ext_job_name_arg(&job, argv[0], "TABLE", &zTable);
  if( rc==SQLITE_OK && argc>=2 ) rc = utf8ext_job_name_arg(&job, argv[1],
                                                           "SCHEMA", &zSchema);
  if( rc==SQLITE_OK ){
    rc = utf8ext_resolve_schema(job.db, zTable, zSchema, &job.zSchema, &job.zErr);
  }
  if( rc==SQLITE_OK ){
    rc = utf8ext_job_begin(&job, 0, &bNoLog);
    if( rc==SQLITE_OK && !bNoLog ) rc = undo_all(&job, zTable);
    rc = utf8ext_job_end(&job, rc);
  }
  if( rc==SQLITE_OK && job.nChanged==0 && zTable && zSchema==0 ){
    /* the name found a table of another schema than the logged one */
    char *zDb = undo_logged_elsewhere(&job, zTable);
    if( zDb ){
      rc = utf8ext_job_error(&job, SQLITE_ERROR,
                             "no repair of \"%w\" is logged in"
          " schema \"%w\", where SQL finds that name first, but one is in"
          " \"%w\": call utf8_undo('%q', '%q')", zTable, job.zSchema, zDb,
          zTable, zDb);
      sqlite3_free(zDb);
    }
  }
  utf8ext_job_result(ctx, &job, rc);
}
