/*
** utf8ext_repair.c - utf8_repair(TABLE [, METHOD [, SCHEMA]]): the unit of
** utf8ext that writes users' tables, one row at a time as it reads them.
** utf8_undo (utf8ext_undo.c) puts back what it logged; utf8ext_job.c holds
** what both share: the transaction that makes a call all or nothing, the
** log, the key, the fingerprint and the refusals.
**
**     SELECT utf8_repair('people');            -- 3: values changed
**     SELECT utf8_repair(NULL, 'cp1252');      -- every table of main
**     SELECT * FROM utf8_repair_log;           -- what changed, originals
**     SELECT utf8_undo('people');              -- 3: values put back
**
** utf8_repair replaces every ill-formed TEXT value of TABLE (of every
** ordinary table of SCHEMA when TABLE is NULL) by utf8_fix(X) (METHOD
** 'fix', the default, also for a NULL METHOD) or utf8_recode(X, METHOD)
** ('cp1252', 'latin1', 'cesu8', 'mutf8' and their aliases), or by
** utf8_recode(X, ENC, 'whole') ('cp1252-whole', 'latin1-whole': every
** byte decoded, for legacy values whose bytes hold an accidental UTF-8
** pair), and returns how many values it changed. METHOD 'mojibake'
** changes the other values instead: well-formed TEXT that
** utf8_unmojibake() changes becomes exactly that (ill-formed text is left
** to the other methods; in a UTF-16 database so is text whose stored
** UTF-16 is ill-formed; a value still mojibake after it, misread too
** often, is refused, so a second run changes nothing). SCHEMA is found as
** utf8_audit finds it.
**
** THE PROMISES
**
**   - All or nothing, also when the call is interrupted, the disk is full
**     or another connection holds the lock: see utf8ext_job.c. The error
**     names the function, the table, the column and the key, and says what
**     became of the database ("nothing was changed", or that SQLite rolled
**     the user's whole transaction back).
**   - Rows are found by value, never by SQL text: by the true rowid when
**     the table has one (read by whichever of rowid, _rowid_, oid no
**     column shadows), otherwise by the whole primary key as stored after
**     the repair. Keys are bound, so NULL parts, NUL bytes, CR LF,
**     infinities and ill-formed keys all work.
**   - All bad columns of a row change in one UPDATE. Generated columns are
**     never written (repairing their sources repairs them).
**   - Every write is UPDATE OR ABORT and must change exactly one row, so a
**     constraint declared ON CONFLICT REPLACE or IGNORE cannot delete or
**     skip a row: the repair is refused instead, naming the constraint
**     SQLite names (UNIQUE, an index on an expression, CHECK, FOREIGN KEY).
**     A repair that leaves a deferred foreign key unresolved is refused.
**   - What was written is read back and compared byte for byte, by repair
**     and by undo; undo first checks that the value is still exactly what
**     the repair wrote, and refuses rather than overwrite a later change,
**     and that a row found by an unstable rowid still has the fingerprint
**     the repair logged.
**   - Where a round trip could not be exact, the call is refused before
**     anything changes: a table with a trigger that fires on UPDATE (it
**     could rewrite what undo puts back, or act elsewhere), a column that
**     another table references with ON UPDATE CASCADE, SET NULL or SET
**     DEFAULT while foreign keys are on (checked again by undo), a rowid
**     table whose rowid no name reaches, a value or key starting with
**     U+FEFF in a UTF-16 database, the shadow tables of virtual tables,
**     SQLite's own tables and the log itself.
**   - Memory does not grow with the table: each row is repaired as the
**     scan reaches it (SQLite lets a statement update rows a running SELECT
**     has passed; a row whose key moved ahead comes again, well-formed, and
**     is left alone), so a call holds one row at a time.
**
** THE LOG
**
** utf8_repair_log lives in the schema of the table repaired, created by
** the first repair that changes something:
**
**     id        INTEGER PRIMARY KEY, the order of the repairs
**     tbl, col  the table and column
**     rid       the row's rowid; NULL for a table found by its key
**     key       the primary key after the repair, encoded by utf8ext (a
**               count, then per part a type byte I F T B N and its bytes),
**               for undo to bind; NULL when rid is used
**     rowhash   for a table whose rowid VACUUM may renumber (no INTEGER
**               PRIMARY KEY): a 128-bit fingerprint of the row as the
**               repair left it and the number of columns it covers (four
**               bytes; logs of 0.2 have the 16 bytes alone), which undo
**               checks before writing; else NULL
**     pk        the same key as an SQL literal, for people to read; never run
**     original  the value's bytes before, as stored (UTF-16 in a UTF-16
**               database), a BLOB
**     repaired  its bytes after, as stored, a BLOB
**     method    'fix', 'mojibake', 'cp1252', 'latin1', 'cesu8', 'mutf8',
**               'cp1252-whole' or 'latin1-whole'
**     at        when, UTC
**
** A table of that name with other columns, a view of that name, or a log
** with triggers is never written: both functions refuse.
**
** A call's work is committed (or kept in the user's open transaction) when
** it returns; a later error of the calling statement does not undo it, so
** the functions are called alone: SELECT utf8_repair(...). From inside a
** statement that writes they refuse.
**
** Both functions are SQLITE_DIRECTONLY: they can be called from SQL a user
** types, never from a view or trigger stored in a database file.
*/
#include "utf8ext_job.h"
#include "mojibake.h"

#include <stdlib.h>
#include <string.h>

/*
** One table being repaired: how it is read, what the row at hand holds,
** and what is known of the table once its first bad row is met.
*/
typedef struct repair_scan repair_scan;
struct repair_scan {
  const utf8ext_table *p;     /* The table */
  sqlite3_stmt *pScan;        /* Reads every row: rowid, key, columns of
                              ** the first pass (UTF8EXT_SCAN_*) */
  int nWidth;                 /* Columns one SELECT reads (utf8ext_scan_width) */
  sqlite3_stmt **apPass;      /* A table wider than that: reads the columns
                              ** of pass k>0 of the row at hand, by locator */
  int nPass;                  /* Passes, the scan's included */
  sqlite3_value **apVal;      /* The row's value of each column */
  int *aiCol;                 /* The row's columns to repair, ascending */
  unsigned char **az;         /* az[2i]: original i as stored; az[2i+1]: repaired */
  sqlite3_int64 *an;          /* Their lengths */
  const char **azMethod;      /* azMethod[i]: the log's method of value i */
  char *zPk;                  /* The row's key as a literal, for messages */
  int bReady;                 /* The refusals of a table with bad rows are done */
  char **azFkWhy;             /* Why a column may not change (utf8ext_fk_update_actions) */
};

/* ---- reading the table ------------------------------------------------------ */

/* Bind the locator of the row pScan is on to pStmt from parameter iParam. */
static void bind_scan_locator(const utf8ext_table *p, sqlite3_stmt *pScan,
                              sqlite3_stmt *pStmt, int iParam){
  int k;
  if( p->zRowid ){
    sqlite3_bind_value(pStmt, iParam, sqlite3_column_value(pScan,
                                                           UTF8EXT_SCAN_ROWID));
    return;
  }
  for(k=0; k<p->nPk; k++){
    sqlite3_bind_value(pStmt, iParam+k,
                       sqlite3_column_value(pScan, UTF8EXT_SCAN_KEY+k));
  }
}

/* Prepare the scan and, for a wide table, the reads of its other passes. */
/* zSql (a scan of the table) with the call's WHERE, if any; frees zSql. */
static char *scan_where(const repair_job *pJob, char *zSql){
  if( zSql==0 || pJob->zWhere==0 ) return zSql;
  return sqlite3_mprintf("%z WHERE (%s)", zSql, pJob->zWhere);
}

static int scan_open(repair_job *pJob, repair_scan *s){
  const utf8ext_table *p = s->p;
  int rc, k;
  s->nWidth = utf8ext_scan_width(pJob->db, p);
  s->nPass = (p->nCol + s->nWidth - 1)/s->nWidth;
  s->apVal = sqlite3_malloc64(sizeof(sqlite3_value*)*p->nCol);
  s->aiCol = sqlite3_malloc64(sizeof(int)*(p->nCol+1));
  s->az = sqlite3_malloc64(sizeof(unsigned char*)*2*p->nCol);
  s->an = sqlite3_malloc64(sizeof(sqlite3_int64)*2*p->nCol);
  s->apPass = sqlite3_malloc64(sizeof(sqlite3_stmt*)*s->nPass);
  s->azMethod = sqlite3_malloc64(sizeof(char*)*p->nCol);
  if( !s->apVal || !s->aiCol || !s->az || !s->an || !s->apPass || !s->azMethod ){
    return SQLITE_NOMEM;
  }
  memset(s->az, 0, sizeof(unsigned char*)*2*p->nCol);
  memset(s->apPass, 0, sizeof(sqlite3_stmt*)*s->nPass);
  rc = utf8ext_job_prepare(pJob, scan_where(pJob, utf8ext_scan_sql(p, 0, s->nWidth)),
                           &s->pScan);
  for(k=1; rc==SQLITE_OK && k<s->nPass; k++){
    int i, n = 0;
    for(i=k*s->nWidth; i<(k+1)*s->nWidth && i<p->nCol; i++) s->aiCol[n++] = i;
    rc = utf8ext_job_prepare_read(pJob, p, s->aiCol, n, &s->apPass[k]);
  }
  return rc;
}

static void scan_close(repair_scan *s){
  int k;
  sqlite3_finalize(s->pScan);
  for(k=1; s->apPass && k<s->nPass; k++) sqlite3_finalize(s->apPass[k]);
  sqlite3_free(s->apPass);
  sqlite3_free(s->apVal);
  sqlite3_free(s->aiCol);
  sqlite3_free(s->az);
  sqlite3_free(s->an);
  sqlite3_free(s->azMethod);
  utf8ext_fk_free(s->azFkWhy, s->p ? s->p->nCol : 0);
}

/*
** The values of every column of the row the scan is on into s->apVal: the
** scan's own, and for a wide table those of its other passes, read by the
** row's locator (reset by row_done()).
*/
static int row_values(repair_job *pJob, repair_scan *s){
  const utf8ext_table *p = s->p;
  int i, k, rc;
  for(i=0; i<s->nWidth; i++){
    s->apVal[i] = sqlite3_column_value(s->pScan, UTF8EXT_SCAN_COL(p, i));
  }
  for(k=1; k<s->nPass; k++){
    bind_scan_locator(p, s->pScan, s->apPass[k], 1);
    rc = utf8ext_job_read_one_row(pJob, p, s->apPass[k], 0);
    if( rc!=SQLITE_OK ) return rc;
    for(i=k*s->nWidth; i<(k+1)*s->nWidth && i<p->nCol; i++){
      s->apVal[i] = sqlite3_column_value(s->apPass[k],
                                         UTF8EXT_SCAN_COL(p, i-k*s->nWidth));
    }
  }
  return SQLITE_OK;
}

/* Free what the row at hand holds. */
static void row_done(repair_scan *s, int n){
  int i, k;
  for(i=0; i<2*n; i++){
    sqlite3_free(s->az[i]);
    s->az[i] = 0;
  }
  sqlite3_free(s->zPk);
  s->zPk = 0;
  for(k=1; k<s->nPass; k++) sqlite3_reset(s->apPass[k]);
}

/*
** The key of the row at hand as a literal, for messages: made only when a
** message needs it (the scan is on the row until the row is done). NULL
** when out of memory: the message then names no row.
*/
static const char *row_pk(repair_scan *s){
  if( s->zPk==0 ) s->zPk = utf8ext_scan_pk_literal(s->p, s->pScan);
  return s->zPk;
}

/* Step pRead (bound to the row's locator) to the row; else an error. */
static int row_read(repair_job *pJob, repair_scan *s, sqlite3_stmt *pRead){
  int rc = sqlite3_step(pRead);
  if( rc==SQLITE_ROW ) return SQLITE_OK;
  if( rc==SQLITE_DONE ){
    return utf8ext_job_error_at(pJob, SQLITE_ERROR, s->p, -1, row_pk(s),
                                "the row is not there (any more)");
  }
  return utf8ext_job_sql_error(pJob, rc);
}

/* ---- which values, and what they become ------------------------------------- */

/*
** True if the method repairs value v of p: TEXT that is ill-formed for
** 'fix' and the encodings; for 'mojibake', TEXT that is well-formed and
** that utf8_unmojibake() changes. The 'mojibake' method leaves ill-formed
** text alone ('fix' or an encoding repairs it; a guess at mojibake in
** bytes that are not UTF-8 would be a guess), and in a UTF-16 database
** text whose stored UTF-16 is not well-formed: SQLite's UTF-8 of it is
** not exact, so a repair computed on it could change other characters.
** -1 when out of memory.
*/
static int value_needs_repair(repair_job *pJob, const utf8ext_table *p,
                              int iCol, sqlite3_value *v){
  const unsigned char *z;
  sqlite3_int64 n, nOut;
  int bValid, r;
  if( sqlite3_value_type(v)!=SQLITE_TEXT ) return 0;
  if( pJob->bMoji && p->eTextEnc!=SQLITE_UTF8 ){
    /* before sqlite3_value_text(), which converts the value in place */
    if( !utf8ext_stored_text(v, p->eTextEnc, &z, &n) ) return -1;
    if( !utf8ext_utf16_well_formed(z, n, p->eTextEnc) ) return 0;
  }
  z = sqlite3_value_text(v);
  if( z==0 ) return -1;
  n = sqlite3_value_bytes(v);
  bValid = utf8_is_valid(z, (size_t)n);
  if( !pJob->bMoji ) return !bValid;
  if( !bValid ) return 0;
  r = utf8ext_moji_repair_of(p, iCol, z, n, &pJob->aMoji, &pJob->nMoji, &nOut);
  return r<0 ? -1 : r>0;
}

/* The columns of the row at hand that the method repairs, into s->aiCol. */
static int row_bad_columns(repair_job *pJob, repair_scan *s, int *pn){
  const utf8ext_table *p = s->p;
  int i, n = 0;
  for(i=0; i<p->nCol; i++){
    int r;
    if( p->aGenerated[i] || (pJob->aColOn && !pJob->aColOn[i]) ) continue;
    r = value_needs_repair(pJob, p, i, s->apVal[i]);
    if( r<0 ) return SQLITE_NOMEM;
    if( r ) s->aiCol[n++] = i;
  }
  *pn = n;
  return SQLITE_OK;
}

/*
** True if UTF-16 text z[0..n) in byte order eTextEnc starts with U+FEFF.
** SQLite takes that for a byte-order mark and drops it when such text is
** bound, so in a UTF-16 database it could not be written back exactly.
*/
static int starts_with_bom(const unsigned char *z, sqlite3_int64 n,
                           int eTextEnc){
  if( eTextEnc==SQLITE_UTF8 || n<2 ) return 0;
  return eTextEnc==SQLITE_UTF16LE ? (z[0]==0xFF && z[1]==0xFE)
                                  : (z[0]==0xFE && z[1]==0xFF);
}

/*
** The 'mojibake' repair of z[0..n) into a new buffer *pzOut of *pnOut
** bytes: utf8_unmojibake(z), exactly what the SQL function gives. A value
** that is no longer mojibake (SQLITE_ABORT) or whose repair still is
** (SQLITE_RANGE: misread more often than utf8_unmojibake undoes in one
** call, so a second repair would change it again) is the caller's error.
*/
static int repair_moji_value(repair_job *pJob, const utf8ext_table *p,
                             int iCol, const unsigned char *z,
                             sqlite3_int64 n, unsigned char **pzOut,
                             sqlite3_int64 *pnOut){
  sqlite3_int64 nOut = 0, nAgain;
  int r;
  *pzOut = 0;
  if( !utf8_is_valid(z, (size_t)n) ) return SQLITE_ABORT;
  r = utf8ext_moji_repair_of(p, iCol, z, n, &pJob->aMoji, &pJob->nMoji, &nOut);
  if( r<0 ) return SQLITE_NOMEM;
  if( r==0 ) return SQLITE_ABORT;
  *pzOut = utf8ext_job_copy_bytes(pJob->aMoji, nOut);
  if( *pzOut==0 ) return SQLITE_NOMEM;
  *pnOut = nOut;
  /* idempotent: the repair must be what utf8_unmojibake leaves alone.
  ** Short of UTF8_MOJI_MAX_DEPTH misreadings it is (core/mojibake.c,
  ** rule 7: nothing is undone otherwise); at it, the passes stopped and
  ** more may be left. */
  if( r<UTF8_MOJI_MAX_DEPTH ) return SQLITE_OK;
  r = utf8ext_unmojibake_buf(*pzOut, nOut, &pJob->aMoji, &pJob->nMoji, &nAgain,
                             0);
  if( r<0 ) return SQLITE_NOMEM;
  return r ? SQLITE_RANGE : SQLITE_OK;
}

/*
** The 'auto' repair of ill-formed z[0..n), in column iCol, into a new
** buffer: mended by utf8_fix when it reads best as damaged UTF-8; else
** decoded whole with the charset utf8_guess_group_choose() takes for it
** in its column: of its readings, the cheapest once each one's share of
** the column's bad values is weighed in (the column's guess, most often);
** else mended. pJob->zValueMethod says which, for
** the log.
*/
static int repair_auto_value(repair_job *pJob, int iCol,
                             const unsigned char *z, sqlite3_int64 n,
                             unsigned char **pzOut, sqlite3_int64 *pnOut){
  static const unsigned char fffd[] = { 0xEF, 0xBF, 0xBD };
  sqlite3_int64 limit = sqlite3_limit(pJob->db, SQLITE_LIMIT_LENGTH, -1);
  int32_t score[UTF8_GUESS_N];
  uint64_t hash[UTF8_GUESS_N];
  int g;
  size_t len;
  if( utf8_guess_score(z, (size_t)n, score, hash)==UTF8_GUESS_UTF8 ){
    /* read best as damaged UTF-8 (most often: cut at the end), it is
    ** mended, whatever the column: a lone lead byte at the end reads as
    ** a letter in many a charset too */
    g = UTF8_GUESS_UTF8;
  }else if( pJob->aGroup ){
    g = utf8_guess_group_choose(&pJob->aGroup[iCol], score, hash);
  }else{
    g = utf8_guess_pick(score, hash);
  }
  if( g==UTF8_GUESS_NONE ) g = UTF8_GUESS_UTF8;
  if( pJob->azAuto[g]==0 ){
    pJob->azAuto[g] = g==UTF8_GUESS_UTF8 ? sqlite3_mprintf("auto:fix")
        : sqlite3_mprintf("auto:%s-whole", utf8_guess_name(g));
    if( pJob->azAuto[g]==0 ) return SQLITE_NOMEM;
  }
  pJob->zValueMethod = pJob->azAuto[g];
  len = g==UTF8_GUESS_UTF8 ? utf8_fix(z, (size_t)n, fffd, 3, UTF8_FIX_SUBPART, 0)
      : utf8_charset_decode(z, (size_t)n, (utf8_charset)g, 0);
  *pzOut = 0;
  if( len>(size_t)limit ) return SQLITE_TOOBIG;
  *pzOut = sqlite3_malloc64(len+1);
  if( *pzOut==0 ) return SQLITE_NOMEM;
  if( g==UTF8_GUESS_UTF8 ) utf8_fix(z, (size_t)n, fffd, 3, UTF8_FIX_SUBPART, *pzOut);
  else utf8_charset_decode(z, (size_t)n, (utf8_charset)g, *pzOut);
  *pnOut = (sqlite3_int64)len;
  return SQLITE_OK;
}

/*
** The repaired form of z[0..n) into a new buffer *pzOut of *pnOut bytes,
** no longer than the connection's SQLITE_LIMIT_LENGTH.
*/
static int repair_value(repair_job *pJob, const utf8ext_table *p, int iCol,
                        const unsigned char *z, sqlite3_int64 n,
                        unsigned char **pzOut, sqlite3_int64 *pnOut){
  static const unsigned char fffd[] = { 0xEF, 0xBF, 0xBD };
  sqlite3_int64 limit = sqlite3_limit(pJob->db, SQLITE_LIMIT_LENGTH, -1);
  size_t len;
  utf8_charset cs = (utf8_charset)pJob->iCharset;
  if( pJob->bMoji ) return repair_moji_value(pJob, p, iCol, z, n, pzOut, pnOut);
  if( pJob->bAuto ) return repair_auto_value(pJob, iCol, z, n, pzOut, pnOut);
  len = pJob->bFix ? utf8_fix(z, (size_t)n, fffd, 3, UTF8_FIX_SUBPART, 0)
      : pJob->iCharset>=0 && pJob->bWhole ? utf8_charset_decode(z, (size_t)n, cs, 0)
      : pJob->iCharset>=0 ? utf8_charset_recode(z, (size_t)n, cs, 0)
      : pJob->bWhole ? utf8_recode_whole(z, (size_t)n, pJob->enc, 0)
      : utf8_recode(z, (size_t)n, pJob->enc, 0);
  *pzOut = 0;
  if( len>(size_t)limit ) return SQLITE_TOOBIG;
  *pzOut = sqlite3_malloc64(len+1);
  if( *pzOut==0 ) return SQLITE_NOMEM;
  if( pJob->bFix ) utf8_fix(z, (size_t)n, fffd, 3, UTF8_FIX_SUBPART, *pzOut);
  else if( pJob->iCharset>=0 && pJob->bWhole ){
    utf8_charset_decode(z, (size_t)n, cs, *pzOut);
  }else if( pJob->iCharset>=0 ) utf8_charset_recode(z, (size_t)n, cs, *pzOut);
  else if( pJob->bWhole ) utf8_recode_whole(z, (size_t)n, pJob->enc, *pzOut);
  else utf8_recode(z, (size_t)n, pJob->enc, *pzOut);
  *pnOut = (sqlite3_int64)len;
  return SQLITE_OK;
}

/*
** False if UTF-8 z[0..n), written into column iCol of p, would be a key
** part that starts with U+FEFF in a UTF-16 database: undo binds the key as
** stored, and SQLite drops a leading U+FEFF from bound UTF-16 text.
*/
static int key_repair_findable(const utf8ext_table *p, int iCol,
                               const unsigned char *z, sqlite3_int64 n){
  int k;
  if( p->eTextEnc==SQLITE_UTF8 || p->zRowid ) return 1;
  if( n<3 || z[0]!=0xEF || z[1]!=0xBB || z[2]!=0xBF ) return 1;
  for(k=0; k<p->nPk; k++){
    if( p->aiPk[k]==iCol ) return 0;
  }
  return 1;
}

/* ---- the table's first bad row ------------------------------------------------ */

/*
** What a table needs once it has a row to repair: its key's index, and the
** refusals of tables whose rows could not come back exactly.
*/
static int table_ready(repair_job *pJob, repair_scan *s){
  utf8ext_table *p = (utf8ext_table*)s->p;
  int rc;
  if( s->bReady ) return SQLITE_OK;
  s->bReady = 1;
  rc = utf8ext_table_load_key(pJob->db, p, &pJob->zErr);
  if( rc==SQLITE_OK ) rc = utf8ext_refuse_unlocatable(pJob, p);
  if( rc==SQLITE_OK ) rc = utf8ext_refuse_update_triggers(pJob, p);
  if( rc==SQLITE_OK ) rc = utf8ext_fk_update_actions(pJob, p, &s->azFkWhy);
  if( rc==SQLITE_OK ) rc = utf8ext_fp_open(pJob, p);
  return rc;
}

/*
** Refuse the row at hand when a key part cannot be bound as stored (in a
** UTF-16 database, text starting with U+FEFF: SQLite drops it from bound
** UTF-16 text, so the row could not be found by it, and another row,
** whose key is the same text without it, would be), or when a column to
** change is referenced with an ON UPDATE action.
*/
static int row_refusals(repair_job *pJob, repair_scan *s, int n){
  const utf8ext_table *p = s->p;
  int i, k;
  for(k=0; p->zRowid==0 && p->eTextEnc!=SQLITE_UTF8 && k<p->nPk; k++){
    sqlite3_value *v = sqlite3_column_value(s->pScan, UTF8EXT_SCAN_KEY+k);
    const unsigned char *z;
    sqlite3_int64 nz;
    if( sqlite3_value_type(v)!=SQLITE_TEXT ) continue;
    if( !utf8ext_stored_text(v, p->eTextEnc, &z, &nz) ) return SQLITE_NOMEM;
    if( starts_with_bom(z, nz, p->eTextEnc) ){
      return utf8ext_job_error_at(pJob, SQLITE_ERROR, p, p->aiPk[k], row_pk(s),
                                  "the key"
          " starts with U+FEFF, which SQLite drops from bound UTF-16 text, so"
          " the row could not be found again");
    }
  }
  for(i=0; s->azFkWhy && i<n; i++){
    if( s->azFkWhy[s->aiCol[i]] ){
      return utf8ext_job_error_at(pJob, SQLITE_ERROR, p, s->aiCol[i], 0, "%s",
                        s->azFkWhy[s->aiCol[i]]);
    }
  }
  return SQLITE_OK;
}

/* ---- one row: repair, write, verify, log ------------------------------------ */

/*
** Step 1: each bad value's original as stored, and its repair. In a UTF-16
** database the row is read again first: the scan's values were converted
** to UTF-8 in place when they were judged, and the log keeps the stored
** UTF-16.
*/
static int row_repairs(repair_job *pJob, repair_scan *s, int n,
                       sqlite3_stmt *pRead){
  const utf8ext_table *p = s->p;
  int i, rc = SQLITE_OK;
  if( p->eTextEnc!=SQLITE_UTF8 ){
    bind_scan_locator(p, s->pScan, pRead, 1);
    rc = row_read(pJob, s, pRead);
    if( rc!=SQLITE_OK ) return rc;
    for(i=0; i<n; i++){
      s->apVal[s->aiCol[i]] = sqlite3_column_value(pRead, UTF8EXT_SCAN_COL(p, i));
    }
  }
  for(i=0; rc==SQLITE_OK && i<n; i++){
    int c = s->aiCol[i];
    sqlite3_value *v = s->apVal[c];
    const unsigned char *z;
    sqlite3_int64 nz;
    if( !utf8ext_stored_text(v, p->eTextEnc, &z, &nz)
     || (s->az[2*i] = utf8ext_job_copy_bytes(z, nz))==0 ){
      rc = SQLITE_NOMEM;
      break;
    }
    s->an[2*i] = nz;
    if( starts_with_bom(z, nz, p->eTextEnc) ){
      rc = utf8ext_job_error_at(pJob, SQLITE_ERROR, p, c, row_pk(s),
                                "the value starts"
          " with U+FEFF, which SQLite drops from bound UTF-16 text, so undo"
          " could not write the original back");
      break;
    }
    if( pJob->bMoji && p->eTextEnc!=SQLITE_UTF8
     && !utf8ext_utf16_well_formed(z, nz, p->eTextEnc) ){
      rc = SQLITE_ABORT;      /* the scan saw it well-formed */
    }else{
      z = sqlite3_value_text(v);
      if( z==0 ){ rc = SQLITE_NOMEM; break; }
      pJob->zValueMethod = pJob->zMethod;
      rc = repair_value(pJob, p, c, z, sqlite3_value_bytes(v),
                        &s->az[2*i+1], &s->an[2*i+1]);
      s->azMethod[i] = pJob->zValueMethod;
    }
    if( rc==SQLITE_TOOBIG ){
      rc = utf8ext_job_error_at(pJob, SQLITE_TOOBIG, p, c, row_pk(s),
                      "the repaired value would be longer than "
                      "SQLITE_LIMIT_LENGTH");
    }else if( rc==SQLITE_ABORT ){
      rc = utf8ext_job_error_at(pJob, SQLITE_ERROR, p, c, row_pk(s),
                      "the value changed while the repair ran");
    }else if( rc==SQLITE_RANGE ){
      rc = utf8ext_job_error_at(pJob, SQLITE_ERROR, p, c, row_pk(s),
          "it was misread more than %d times: utf8_unmojibake leaves "
          "mojibake in it, so a second repair would change it again; "
          "repair it by hand", UTF8_MOJI_MAX_DEPTH);
    }else if( rc==SQLITE_OK
           && !key_repair_findable(p, c, s->az[2*i+1], s->an[2*i+1]) ){
      rc = utf8ext_job_error_at(pJob, SQLITE_ERROR, p, c, row_pk(s), "the repaired"
          " key would start with U+FEFF, which SQLite drops from bound UTF-16"
          " text, so undo could not find the row again");
    }
  }
  sqlite3_reset(pRead);
  return rc;
}

/*
** Step 2: one UPDATE OR ABORT for all of them, which must change exactly
** the one row.
*/
static int row_update(repair_job *pJob, repair_scan *s, int n,
                      sqlite3_stmt *pUpdate){
  const utf8ext_table *p = s->p;
  int i, rc;
  for(i=0; i<n; i++){
    sqlite3_bind_text64(pUpdate, i+1, (const char*)s->az[2*i+1], s->an[2*i+1],
                        SQLITE_STATIC, SQLITE_UTF8);
  }
  bind_scan_locator(p, s->pScan, pUpdate, n+1);
  rc = utf8ext_job_step_write(pUpdate);
  if( rc!=SQLITE_OK ){
    /* SQLite's message first: making the key's literal may run SQL */
    char *zMsg = sqlite3_mprintf("%s", sqlite3_errmsg(pJob->db));
    rc = utf8ext_job_error_at(pJob, rc, p, s->aiCol[0], row_pk(s), "%s",
                              zMsg ? zMsg : sqlite3_errstr(rc));
    sqlite3_free(zMsg);
  }else if( sqlite3_changes(pJob->db)!=1 ){
    rc = utf8ext_job_error_at(pJob, SQLITE_ERROR, p, s->aiCol[0], row_pk(s),
                    "the UPDATE changed %d rows, not 1",
                    sqlite3_changes(pJob->db));
  }
  sqlite3_clear_bindings(pUpdate);
  return rc;
}

/*
** Step 3: find the row again, by its key as it is after the repair, and
** compare every value written byte for byte. pRead is left on the row.
*/
static int row_verify(repair_job *pJob, repair_scan *s, int n,
                      sqlite3_stmt *pRead){
  const utf8ext_table *p = s->p;
  int i, k, rc;
  if( p->zRowid==0 ){
    for(k=0; k<p->nPk; k++){
      for(i=0; i<n && s->aiCol[i]!=p->aiPk[k]; i++){}
      if( i<n ){
        sqlite3_bind_text64(pRead, k+1, (const char*)s->az[2*i+1], s->an[2*i+1],
                            SQLITE_STATIC, SQLITE_UTF8);
      }else{
        sqlite3_bind_value(pRead, k+1,
                           sqlite3_column_value(s->pScan, UTF8EXT_SCAN_KEY+k));
      }
    }
  }else{
    bind_scan_locator(p, s->pScan, pRead, 1);
  }
  rc = row_read(pJob, s, pRead);
  for(i=0; rc==SQLITE_OK && i<n; i++){
    int c = UTF8EXT_SCAN_COL(p, i);
    const unsigned char *z = sqlite3_column_text(pRead, c);
    if( sqlite3_column_type(pRead, c)!=SQLITE_TEXT
     || sqlite3_column_bytes(pRead, c)!=s->an[2*i+1]
     || (s->an[2*i+1]>0 && (z==0 || memcmp(z, s->az[2*i+1],
                                           (size_t)s->an[2*i+1])!=0)) ){
      rc = utf8ext_job_error_at(pJob, SQLITE_ERROR, p, s->aiCol[i], row_pk(s),
                      "it reads back different bytes than were written");
    }
  }
  return rc;
}

/*
** Step 4: log each original, with what finds the row again: the rowid, or
** the key as it is now; the fingerprint of a row found by an unstable
** rowid; the key's literal. pRead is on the row (row_verify).
*/
static int row_log(repair_job *pJob, repair_scan *s, int n, sqlite3_stmt *pRead){
  const utf8ext_table *p = s->p;
  sqlite3_stmt *pIns;
  unsigned char aFp[FP_BYTES];
  sqlite3_str *pKey = 0;
  char *zPk;
  int i, k, rc;

  rc = utf8ext_log_open(pJob);
  if( rc!=SQLITE_OK ) return rc;
  pIns = pJob->pLogInsert;
  zPk = utf8ext_scan_pk_literal(p, pRead);
  if( zPk==0 ) return SQLITE_NOMEM;
  if( p->zRowid==0 ){
    pKey = sqlite3_str_new(0);
    sqlite3_str_appendchar(pKey, 1, (char)p->nPk);
    for(k=0; k<p->nPk; k++){
      utf8ext_key_append(pKey, sqlite3_column_value(pRead, UTF8EXT_SCAN_KEY+k),
                 p->eTextEnc);
    }
    if( sqlite3_str_errcode(pKey)!=SQLITE_OK || sqlite3_str_length(pKey)==0 ){
      rc = SQLITE_NOMEM;
    }
  }
  if( rc==SQLITE_OK && pJob->nFp>0 ){
    rc = utf8ext_row_fingerprint(pJob, p,
        sqlite3_column_int64(s->pScan, UTF8EXT_SCAN_ROWID), p->nCol, aFp);
    for(i=0; i<4; i++){
      aFp[FP_HASH_BYTES+i] = (unsigned char)(p->nCol>>(8*(3-i)));
    }
  }
  for(i=0; rc==SQLITE_OK && i<n; i++){
    const unsigned char *zStored;
    sqlite3_int64 nStored;
    if( !utf8ext_stored_text(sqlite3_column_value(pRead, UTF8EXT_SCAN_COL(p, i)),
                             p->eTextEnc, &zStored, &nStored) ){
      rc = SQLITE_NOMEM;
      break;
    }
    sqlite3_bind_text(pIns, 1, p->zName, -1, SQLITE_STATIC);
    sqlite3_bind_text(pIns, 2, p->azCol[s->aiCol[i]], -1, SQLITE_STATIC);
    if( p->zRowid ){
      sqlite3_bind_value(pIns, 3, sqlite3_column_value(s->pScan,
                                                       UTF8EXT_SCAN_ROWID));
    }else{
      sqlite3_bind_blob(pIns, 4, sqlite3_str_value(pKey),
                        sqlite3_str_length(pKey), SQLITE_STATIC);
    }
    sqlite3_bind_text(pIns, 5, zPk, -1, SQLITE_STATIC);
    sqlite3_bind_blob64(pIns, 6, s->az[2*i], s->an[2*i], SQLITE_STATIC);
    /* pRead stays on the row until the log is written */
    sqlite3_bind_blob64(pIns, 7, zStored, nStored, SQLITE_STATIC);
    sqlite3_bind_text(pIns, 8, s->azMethod[i], -1, SQLITE_STATIC);
    if( pJob->nFp>0 ) sqlite3_bind_blob(pIns, 9, aFp, FP_BYTES, SQLITE_STATIC);
    sqlite3_bind_int64(pIns, 10, pJob->iNextId);
    sqlite3_bind_text(pIns, 11, pJob->zAt, -1, SQLITE_STATIC);
    rc = utf8ext_job_step_write(pIns);
    if( rc==SQLITE_OK && sqlite3_changes(pJob->db)!=1 ){
      rc = utf8ext_job_error_at(pJob, SQLITE_ERROR, p, s->aiCol[i], zPk,
                                "writing the"
          " log: the INSERT changed %d rows, not 1", sqlite3_changes(pJob->db));
    }else if( rc!=SQLITE_OK ){
      rc = utf8ext_job_error_at(pJob, rc, p, s->aiCol[i], zPk,
                                "writing the log: %s",
                      sqlite3_errmsg(pJob->db));
    }else{
      pJob->iNextId++;
    }
    sqlite3_clear_bindings(pIns);
  }
  sqlite3_free(zPk);
  if( pKey ) sqlite3_free(sqlite3_str_finish(pKey));
  return rc;
}

/*
** One row with bad values: the checks the table and the row need, then the
** four steps. The row's statements come from the job's cache.
*/
static int repair_row(repair_job *pJob, repair_scan *s, int n){
  const utf8ext_table *p = s->p;
  int nColLimit = sqlite3_limit(pJob->db, SQLITE_LIMIT_COLUMN, -1);
  sqlite3_stmt *pUpdate = 0, *pRead = 0;
  int rc = table_ready(pJob, s);
  if( rc!=SQLITE_OK ) return rc;
  rc = row_refusals(pJob, s, n);
  if( rc!=SQLITE_OK ) return rc;
  /* The row is read back whole by one SELECT: its key and every column
  ** changed must fit in one result (SQLITE_LIMIT_COLUMN) */
  if( 1+p->nPk+n > nColLimit ){
    return utf8ext_job_error_at(pJob, SQLITE_ERROR, p, -1, 0,
                                "a row has %d columns to"
        " repair, more than one SELECT can read back with its key"
        " (SQLITE_LIMIT_COLUMN %d)", n, nColLimit);
  }
  rc = utf8ext_job_statements(pJob, p, s->aiCol, n, &pUpdate, &pRead);
  if( rc==SQLITE_OK ) rc = row_repairs(pJob, s, n, pRead);
  if( rc==SQLITE_OK ) rc = row_update(pJob, s, n, pUpdate);
  if( rc==SQLITE_OK ) rc = row_verify(pJob, s, n, pRead);
  if( rc==SQLITE_OK ) rc = row_log(pJob, s, n, pRead);
  if( rc==SQLITE_OK ) pJob->nChanged += n;
  if( pRead ){
    sqlite3_reset(pRead);
    sqlite3_clear_bindings(pRead);
  }
  return rc;
}

/* ---- tables --------------------------------------------------------------------- */

/*
** COLUMNS: the columns it names (comma-separated, spaces around a name
** ignored, case-insensitive) into pJob->aColOn; every name must be a
** column of p.
*/
static int table_columns(repair_job *pJob, const utf8ext_table *p){
  const char *z = pJob->zColumns;
  if( z==0 ) return SQLITE_OK;
  pJob->aColOn = sqlite3_malloc64(p->nCol ? p->nCol : 1);
  if( pJob->aColOn==0 ) return SQLITE_NOMEM;
  memset(pJob->aColOn, 0, p->nCol ? p->nCol : 1);
  while( 1 ){
    const char *zEnd = strchr(z, ',');
    size_t n = zEnd ? (size_t)(zEnd-z) : strlen(z);
    int i, bFound = 0;
    while( n>0 && (z[0]==' ' || z[0]=='\t') ){ z++; n--; }
    while( n>0 && (z[n-1]==' ' || z[n-1]=='\t') ) n--;
    for(i=0; i<p->nCol; i++){
      if( strlen(p->azCol[i])==n && sqlite3_strnicmp(p->azCol[i], z, (int)n)==0 ){
        pJob->aColOn[i] = 1;
        bFound = 1;
      }
    }
    if( !bFound ){
      return utf8ext_job_error(pJob, SQLITE_ERROR, "COLUMNS: table \"%w\" has no"
                      " column \"%.*w\" (name the columns, comma-separated)",
                      p->zName, (int)n, z);
    }
    if( zEnd==0 ) break;
    z = zEnd+1;
  }
  return SQLITE_OK;
}

/*
** WHERE: one SQL expression over p's columns (what would follow WHERE in
** a SELECT FROM p), checked before anything is read: it must prepare, on
** its own, as SELECT's condition, with nothing after it.
*/
static int table_where(repair_job *pJob, const utf8ext_table *p){
  sqlite3_stmt *pStmt = 0;
  const char *zTail = 0;
  char *zSql;
  int rc;
  if( pJob->zWhere==0 ) return SQLITE_OK;
  zSql = sqlite3_mprintf("SELECT 1 FROM \"%w\".\"%w\" AS \"%w\" WHERE (%s)",
                         p->zSchema, p->zFrom, p->zFrom, pJob->zWhere);
  if( zSql==0 ) return SQLITE_NOMEM;
  rc = sqlite3_prepare_v2(pJob->db, zSql, -1, &pStmt, &zTail);
  if( rc==SQLITE_OK && (sqlite3_column_count(pStmt)!=1
                        || (zTail && zTail[strspn(zTail, " \t\r\n;")])) ){
    rc = utf8ext_job_error(pJob, SQLITE_ERROR, "WHERE '%s' is not one"
                           " expression over table \"%w\"", pJob->zWhere,
                           p->zName);
  }else if( rc==SQLITE_NOMEM ){
    /* as it is */
  }else if( rc!=SQLITE_OK ){
    rc = utf8ext_job_error(pJob, rc, "WHERE '%s' is not an expression over"
                           " table \"%w\": %s", pJob->zWhere, p->zName,
                           sqlite3_errmsg(pJob->db));
  }
  sqlite3_finalize(pStmt);
  sqlite3_free(zSql);
  return rc;
}

/*
** 'auto': the evidence of each column's ill-formed values together (those
** the call repairs: its COLUMNS, the rows its WHERE picks), read in one
** scan (in passes for a table wider than one SELECT) before any is
** repaired, into pJob->aGroup.
*/
static int table_guesses(repair_job *pJob, const utf8ext_table *p){
  int nWidth = utf8ext_scan_width(pJob->db, p);
  int rc = SQLITE_OK, i, iPass;
  pJob->aGroup = sqlite3_malloc64(sizeof(utf8_guess_group)*(p->nCol ? p->nCol : 1));
  if( pJob->aGroup==0 ) return SQLITE_NOMEM;
  for(i=0; i<p->nCol; i++) utf8_guess_group_init(&pJob->aGroup[i]);
  for(iPass=0; rc==SQLITE_OK && iPass<p->nCol; iPass+=nWidth){
    int iEnd = iPass+nWidth<p->nCol ? iPass+nWidth : p->nCol;
    sqlite3_stmt *pScan = 0;
    rc = utf8ext_job_prepare(pJob, scan_where(pJob, utf8ext_scan_sql(p, iPass, nWidth)),
                             &pScan);
    while( rc==SQLITE_OK && (rc = sqlite3_step(pScan))==SQLITE_ROW ){
      rc = SQLITE_OK;
      for(i=iPass; i<iEnd; i++){
        sqlite3_value *v = sqlite3_column_value(pScan, UTF8EXT_SCAN_COL(p, i-iPass));
        const unsigned char *z;
        int32_t score[UTF8_GUESS_N];
        uint64_t hash[UTF8_GUESS_N];
        if( p->aGenerated[i] || (pJob->aColOn && !pJob->aColOn[i]) ) continue;
        if( sqlite3_value_type(v)!=SQLITE_TEXT ) continue;
        z = sqlite3_value_text(v);
        if( z==0 ){ rc = SQLITE_NOMEM; break; }
        if( utf8_is_valid(z, (size_t)sqlite3_value_bytes(v)) ) continue;
        utf8_guess_score(z, (size_t)sqlite3_value_bytes(v), score, hash);
        utf8_guess_group_add(&pJob->aGroup[i], score, hash);
      }
    }
    if( rc==SQLITE_DONE ) rc = SQLITE_OK;
    else if( rc!=SQLITE_OK && rc!=SQLITE_NOMEM && pJob->zErr==0 ){
      rc = utf8ext_job_sql_error(pJob, rc);
    }
    sqlite3_finalize(pScan);
  }
  return rc;
}

/* Why a named table of type zType is refused whole, or NULL. */
static const char *table_refused(const char *zName, const char *zType){
  if( strcmp(zType, "view")==0 ) return "it is a view, not a table";
  if( strcmp(zType, "virtual")==0 ){
    return "it is a virtual table: its module keeps its data";
  }
  if( strcmp(zType, "shadow")==0 ){
    return "it is a shadow table of a virtual table, whose module owns it";
  }
  if( sqlite3_strnicmp(zName, "sqlite_",
                       7)==0 ) return "it is SQLite's own table";
  if( sqlite3_stricmp(zName,
                      UTF8EXT_LOG_TABLE)==0 ) return "it is the repair log";
  return 0;
}

/*
** Repair table zName of the job's schema (type and wr as
** utf8ext_list_tables() gives them; bNamed if the caller named it): read
** it once, and repair each row with bad values as the scan reaches it.
*/
static int repair_table(repair_job *pJob, const char *zName,
                        const char *zType, int bWithoutRowid, int bNamed){
  utf8ext_table *p = 0;
  repair_scan s;
  int rc;

  if( bNamed && table_refused(zName, zType) ){
    sqlite3_str *q = sqlite3_str_new(0);
    char *z;
    utf8ext_append_escaped(q, (const unsigned char*)zName,
                           (sqlite3_int64)strlen(zName));
    z = sqlite3_str_finish(q);
    if( z==0 ) return SQLITE_NOMEM;
    rc = utf8ext_job_error(pJob, SQLITE_ERROR, "table \"%s\": %s", z,
                  table_refused(zName, zType));
    sqlite3_free(z);
    return rc;
  }
  rc = utf8ext_table_load(pJob->db, pJob->zSchema, zName, bWithoutRowid, &p,
                          &pJob->zErr);
  if( rc!=SQLITE_OK ) return rc;
  memset(&s, 0, sizeof(s));
  s.p = p;
  rc = table_columns(pJob, p);
  if( rc==SQLITE_OK ) rc = table_where(pJob, p);
  if( rc==SQLITE_OK && pJob->bAuto ) rc = table_guesses(pJob, p);
  if( rc==SQLITE_OK ) rc = scan_open(pJob, &s);
  while( rc==SQLITE_OK && (rc = sqlite3_step(s.pScan))==SQLITE_ROW ){
    int n = 0;
    rc = row_values(pJob, &s);
    if( rc==SQLITE_OK ) rc = row_bad_columns(pJob, &s, &n);
    if( rc==SQLITE_OK && n>0 ) rc = repair_row(pJob, &s, n);
    row_done(&s, n);
  }
  if( rc==SQLITE_DONE ) rc = SQLITE_OK;
  else if( rc!=SQLITE_OK && rc!=SQLITE_NOMEM && pJob->zErr==0 ){
    rc = utf8ext_job_sql_error(pJob, rc);
  }
  scan_close(&s);
  utf8ext_fp_close(pJob);
  utf8ext_job_statements_clear(pJob);
  utf8ext_table_free(p);
  sqlite3_free(pJob->aColOn);
  sqlite3_free(pJob->aGroup);
  pJob->aGroup = 0;
  pJob->aColOn = 0;
  return rc;
}

/* ---- the SQL function ---------------------------------------------------------- */

/*
** True if METHOD z[0..n) names a legacy charset (core/charsets.h), as
** utf8_recode's ENC does, with '-whole' after it to decode every byte of
** a bad value (utf8_recode's 'whole'); the log's method is then the
** charset's canonical name, with '-whole' when so.
*/
static int repair_charset_method(repair_job *pJob, const char *z,
                                 sqlite3_int64 n){
  int bWhole = n>6 && sqlite3_strnicmp(z+n-6, "-whole", 6)==0;
  char *zBase = sqlite3_mprintf("%.*s", (int)(bWhole ? n-6 : n), z);
  int cs = zBase ? utf8ext_charset_named(zBase, (sqlite3_int64)strlen(zBase)) : -1;
  sqlite3_free(zBase);
  if( cs<0 ) return 0;
  pJob->iCharset = cs;
  pJob->bWhole = bWhole;
  pJob->zMethodBuf = sqlite3_mprintf("%s%s", utf8_charset_name((utf8_charset)cs),
                                     bWhole ? "-whole" : "");
  return 1;
}

/* Read the METHOD argument v into the job. */
static int repair_method(repair_job *pJob, sqlite3_value *v){
  static const char *const azEnc[] = { "cp1252", "latin1", "cesu8", "mutf8" };
  const char *z;
  int rc = SQLITE_OK;
  if( sqlite3_value_type(v)==SQLITE_NULL ) return SQLITE_OK;
  z = (const char*)sqlite3_value_text(v);
  if( z==0 ) return SQLITE_NOMEM;
  if( (int)strlen(z)!=sqlite3_value_bytes(v) ){
    /* no method has one; the message could not show it either */
    return utf8ext_job_error(pJob, SQLITE_ERROR,
                             "the METHOD argument contains a NUL"
                    " byte");
  }
  if( sqlite3_stricmp(z, "fix")==0 ){
    pJob->bFix = 1;
  }else if( sqlite3_stricmp(z, "auto")==0 ){
    pJob->bFix = 0;
    pJob->bAuto = 1;
    pJob->zMethod = "auto";
  }else if( sqlite3_stricmp(z, "mojibake")==0 ){
    pJob->bFix = 0;
    pJob->bMoji = 1;
    pJob->zMethod = "mojibake";
  }else if( sqlite3_stricmp(z, "cp1252-whole")==0
         || sqlite3_stricmp(z, "latin1-whole")==0 ){
    /* a legacy value decoded whole, its accidental UTF-8 pairs too */
    pJob->bFix = 0;
    pJob->bWhole = 1;
    pJob->enc = (z[0]|0x20)=='c' ? UTF8_RECODE_CP1252 : UTF8_RECODE_LATIN1;
    pJob->zMethod = pJob->enc==UTF8_RECODE_CP1252 ? "cp1252-whole" : "latin1-whole";
  }else if( utf8ext_encoding_named(z, sqlite3_value_bytes(v), &pJob->enc) ){
    pJob->bFix = 0;
    pJob->zMethod = azEnc[pJob->enc];
  }else if( repair_charset_method(pJob, z, sqlite3_value_bytes(v)) ){
    pJob->bFix = 0;
    pJob->zMethod = pJob->zMethodBuf;
    if( pJob->zMethod==0 ) return SQLITE_NOMEM;
  }else{
    sqlite3_str *s = sqlite3_str_new(0);
    char *zEsc, zNames[1024];
    utf8ext_append_escaped(s, (const unsigned char*)z, sqlite3_value_bytes(v));
    zEsc = sqlite3_str_finish(s);
    if( zEsc==0 ) return SQLITE_NOMEM;
    utf8ext_charset_names(zNames, sizeof(zNames));
    rc = utf8ext_job_error(pJob, SQLITE_ERROR, "unknown METHOD '%s': use 'fix', "
                  "'auto', 'mojibake', 'cp1252-whole', 'latin1-whole', "
                  UTF8EXT_ENCODING_NAMES ", or a legacy charset (its ill-formed"
                  " runs decoded; with '-whole' after its name, every byte): %s",
                  zEsc, zNames);
    sqlite3_free(zEsc);
  }
  return rc;
}

/* Repair every table the call names (all of the schema for NULL). */
static int repair_tables(repair_job *pJob, const char *zTable){
  sqlite3_stmt *pList = 0;
  int nSeen = 0;
  int rc = utf8ext_list_tables(pJob->db, pJob->zSchema, zTable, &pList,
                               &pJob->zErr);
  if( rc!=SQLITE_OK ) return rc;
  while( (rc = sqlite3_step(pList))==SQLITE_ROW ){
    const char *zName = (const char*)sqlite3_column_text(pList, 0);
    const char *zType = (const char*)sqlite3_column_text(pList, 1);
    nSeen++;
    if( zName==0 || zType==0 ){ rc = SQLITE_NOMEM; break; }
    rc = repair_table(pJob, zName, zType,
        sqlite3_column_type(pList, 2)==SQLITE_NULL ? -1 :
        sqlite3_column_int(pList, 2)!=0, zTable!=0);
    if( rc!=SQLITE_OK ) break;
  }
  if( rc==SQLITE_DONE ){
    rc = SQLITE_OK;
    if( zTable && nSeen==0 ){
      rc = utf8ext_job_error(pJob, SQLITE_ERROR, "no such table: %s.%s",
                    pJob->zSchema, zTable);
    }
  }else if( rc==SQLITE_ROW || (rc!=SQLITE_OK && pJob->zErr==0) ){
    rc = utf8ext_job_sql_error(pJob, rc);
  }
  sqlite3_finalize(pList);
  return rc;
}

/*
** utf8_repair(TABLE [, METHOD [, SCHEMA]]): see the top of this file.
*/
static void repairFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv){
  repair_job job;
  const char *zTable = 0, *zSchema = 0;
  int rc;

  memset(&job, 0, sizeof(job));
  job.db = sqlite3_context_db_handle(ctx);
  job.zFunc = "utf8_repair";
  job.bFix = 1;
  job.zMethod = "fix";
  job.iCharset = -1;
  rc = utf8ext_job_name_arg(&job, argv[0], "TABLE", &zTable);
  if( rc==SQLITE_OK && argc>=2 ) rc = repair_method(&job, argv[1]);
  if( rc==SQLITE_OK && argc>=3 ) rc = utf8ext_job_name_arg(&job, argv[2],
                                                           "SCHEMA", &zSchema);
  if( rc==SQLITE_OK && argc>=4 ) rc = utf8ext_job_name_arg(&job, argv[3],
                                                           "COLUMNS", &job.zColumns);
  if( rc==SQLITE_OK && argc>=5 ) rc = utf8ext_job_name_arg(&job, argv[4],
                                                           "WHERE", &job.zWhere);
  if( rc==SQLITE_OK && zTable==0 && (job.zColumns || job.zWhere) ){
    rc = utf8ext_job_error(&job, SQLITE_ERROR, "COLUMNS and WHERE need a TABLE:"
                           " they name one table's columns");
  }
  if( rc==SQLITE_OK ){
    rc = utf8ext_resolve_schema(job.db, zTable, zSchema, &job.zSchema, &job.zErr);
  }
  if( rc==SQLITE_OK ){
    rc = utf8ext_job_begin(&job, 1, 0);
    if( rc==SQLITE_OK ) rc = repair_tables(&job, zTable);
    rc = utf8ext_job_end(&job, rc);
  }
  utf8ext_job_result(ctx, &job, rc);
}

/* utf8ext_undo.c */
void utf8ext_undo_func(sqlite3_context *ctx, int argc, sqlite3_value **argv);

int utf8ext_register_repair(sqlite3 *db){
  /* Writes users' tables: never from a view or trigger in a database file. */
  static const int flags = SQLITE_UTF8 | SQLITE_DIRECTONLY;
  int rc = SQLITE_OK, n;
  for(n=1; rc==SQLITE_OK && n<=5; n++){
    rc = sqlite3_create_function(db, "utf8_repair", n, flags, 0, repairFunc, 0,
                                 0);
  }
  for(n=0; rc==SQLITE_OK && n<=2; n++){
    rc = sqlite3_create_function(db, "utf8_undo", n, flags, 0,
                                 utf8ext_undo_func, 0, 0);
  }
  return rc;
}
