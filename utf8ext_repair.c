/*
** utf8ext_repair.c - utf8_repair(TABLE [, METHOD [, SCHEMA]]) and
** utf8_undo([TABLE [, SCHEMA]]): the one unit of utf8ext that writes
** users' tables, and the owner of the repair log.
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
** changes the other values
** instead: well-formed TEXT that utf8_unmojibake() changes becomes exactly
** that (ill-formed text is left to the other methods; in a UTF-16 database
** so is text whose stored UTF-16 is ill-formed; a value still mojibake
** after it, misread too often, is refused, so a second run changes
** nothing). utf8_undo puts back every logged original of
** TABLE (of every table when TABLE is NULL or omitted), newest first, and
** returns how many. SCHEMA is found as utf8_audit finds it.
**
** THE PROMISES
**
**   - All or nothing. Each call runs in a savepoint of its own; on any
**     error or refusal it is rolled back and the database is as before.
**     The error names the function, the table, the column and the key.
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
**
** THE LOG
**
** utf8_repair_log lives in the schema of the table repaired, created on
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
**               repair left it, which undo checks before writing; else NULL
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
** the functions are best called alone: SELECT utf8_repair(...).
**
** Both functions are SQLITE_DIRECTONLY: they can be called from SQL a user
** types, never from a view or trigger stored in a database file.
*/
#include "utf8ext_scan.h"
#include "mojibake.h"

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

/* Key part types in the log's key column. */
#define KEY_NULL  'N'
#define KEY_INT   'I'
#define KEY_FLOAT 'F'
#define KEY_TEXT  'T'
#define KEY_BLOB  'B'

/*
** What one call of utf8_repair or utf8_undo is doing.
*/
typedef struct repair_job repair_job;
struct repair_job {
  sqlite3 *db;                /* The connection */
  const char *zFunc;          /* "utf8_repair" or "utf8_undo" */
  char *zSchema;              /* The schema worked on */
  char *zErr;                 /* Why it failed, without the function's name */
  utf8_recode_enc enc;        /* The method, when bFix and bMoji are 0 */
  int bFix;                   /* True for the 'fix' method */
  int bMoji;                  /* True for the 'mojibake' method */
  int bWhole;                 /* 'cp1252-whole', 'latin1-whole': every byte */
  unsigned char *aMoji;       /* bMoji: scratch for utf8_unmojibake() */
  sqlite3_int64 nMoji;        /* Its size */
  const char *zMethod;        /* The method's name, as the log keeps it */
  sqlite3_int64 nChanged;     /* Values changed so far */
  sqlite3_stmt *pLogInsert;   /* INSERT INTO the log */
  sqlite3_int64 iNextId;      /* The id of this run's next log row */
  char *zAt;                  /* The run's time, every log row's at */
  sqlite3_stmt **apFp;        /* Reads a row for its fingerprint, by pass */
  int nFp;                    /* Entries in apFp; 0: rows need none */
  int bSavepoint;             /* True once our savepoint is open */
  int bAutocommit;            /* True if no transaction was open before it */
  int nDeferred;              /* Unresolved deferred foreign keys before */
};

/* Set pJob->zErr from a printf format (a first message is kept). */
static int jobError(repair_job *pJob, int rc, const char *zFormat, ...){
  va_list ap;
  if( rc==SQLITE_NOMEM || pJob->zErr ) return rc;
  va_start(ap, zFormat);
  pJob->zErr = sqlite3_vmprintf(zFormat, ap);
  va_end(ap);
  return pJob->zErr ? rc : SQLITE_NOMEM;
}

/* Set pJob->zErr to the connection's message for rc. */
static int jobSqlError(repair_job *pJob, int rc){
  return jobError(pJob, rc, "%s", sqlite3_errmsg(pJob->db));
}

/* Run one statement of SQL that returns no rows. */
static int jobExec(repair_job *pJob, const char *zSql){
  int rc = sqlite3_exec(pJob->db, zSql, 0, 0, 0);
  return rc==SQLITE_OK ? rc : jobSqlError(pJob, rc);
}

/* Prepare zSql (from sqlite3_mprintf, freed here). */
static int jobPrepare(repair_job *pJob, char *zSql, sqlite3_stmt **pp){
  int rc;
  *pp = 0;
  if( zSql==0 ) return SQLITE_NOMEM;
  rc = sqlite3_prepare_v2(pJob->db, zSql, -1, pp, 0);
  sqlite3_free(zSql);
  return rc==SQLITE_OK ? rc : jobSqlError(pJob, rc);
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

/* jobError() with where_text(p, iCol, zPk) and ": " before the format. */
static int jobErrorAt(repair_job *pJob, int rc, const utf8ext_table *p,
                      int iCol, const char *zPk, const char *zFormat, ...){
  char *zWhere, *zMsg;
  va_list ap;
  if( rc==SQLITE_NOMEM || pJob->zErr ) return rc;
  va_start(ap, zFormat);
  zMsg = sqlite3_vmprintf(zFormat, ap);
  va_end(ap);
  zWhere = where_text(p, iCol, zPk);
  if( zMsg && zWhere ) rc = jobError(pJob, rc, "%s: %s", zWhere, zMsg);
  else rc = SQLITE_NOMEM;
  sqlite3_free(zMsg);
  sqlite3_free(zWhere);
  return rc;
}

/* ---- the key, encoded as values for the log -------------------------------- */

/* Append the 8 bytes of u, most significant first. */
static void put_u64(sqlite3_str *s, sqlite3_uint64 u){
  char a[8];
  int i;
  for(i=7; i>=0; i--){ a[i] = (char)(u & 0xFF); u >>= 8; }
  sqlite3_str_append(s, a, 8);
}

/* Append the value v as one key part (see THE LOG). */
static void key_append(sqlite3_str *s, sqlite3_value *v, int eTextEnc){
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

/*
** Bind the nPart key parts encoded in z[0..n) to pStmt from parameter
** iParam on. Part iSkip (if >=0) is left for the caller. Returns SQLITE_OK,
** or SQLITE_CORRUPT when the encoding is not one utf8_repair wrote.
*/
static int key_bind(sqlite3_stmt *pStmt, int iParam, const unsigned char *z,
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
** in temp (a temporary trigger can watch a table of any schema).
*/
static int refuse_update_triggers(repair_job *pJob, const utf8ext_table *p){
  sqlite3_stmt *pStmt;
  int rc = jobPrepare(pJob, sqlite3_mprintf(
      "SELECT name, sql FROM \"%w\".sqlite_master WHERE type='trigger'"
      " AND tbl_name=?1 COLLATE NOCASE UNION ALL"
      " SELECT name, sql FROM temp.sqlite_master WHERE type='trigger'"
      " AND tbl_name=?1 COLLATE NOCASE", p->zSchema), &pStmt);
  if( rc!=SQLITE_OK ) return rc;
  sqlite3_bind_text(pStmt, 1, p->zName, -1, SQLITE_STATIC);
  while( (rc = sqlite3_step(pStmt))==SQLITE_ROW ){
    const char *zSql = (const char*)sqlite3_column_text(pStmt, 1);
    if( zSql && trigger_fires_on_update(zSql) ){
      rc = jobErrorAt(pJob, SQLITE_ERROR, p, -1, 0,
          "trigger \"%w\" fires on UPDATE and could change what is written"
          " or act elsewhere, so the round trip could not be exact; drop it"
          " for the repair and create it again after",
          sqlite3_column_text(pStmt, 0));
      break;
    }
  }
  if( rc==SQLITE_DONE ) rc = SQLITE_OK;
  else if( rc!=SQLITE_ERROR ) rc = jobSqlError(pJob, rc);
  sqlite3_finalize(pStmt);
  return rc;
}

/*
** With foreign keys on, refuse when another table references a column of
** p marked in aBad with an ON UPDATE action that changes the child
** (CASCADE, SET NULL, SET DEFAULT): undo could not bring the child back.
*/
static int refuse_fk_actions(repair_job *pJob, const utf8ext_table *p,
                             const unsigned char *aBad){
  sqlite3_stmt *pStmt;
  int rc, i;
  rc = jobPrepare(pJob, sqlite3_mprintf("PRAGMA foreign_keys"), &pStmt);
  if( rc!=SQLITE_OK ) return rc;
  rc = sqlite3_step(pStmt);
  i = rc==SQLITE_ROW ? sqlite3_column_int(pStmt, 0) : 0;
  sqlite3_finalize(pStmt);
  if( i==0 ) return SQLITE_OK;
  rc = jobPrepare(pJob, sqlite3_mprintf(
      "SELECT m.name, f.\"to\", f.on_update FROM \"%w\".sqlite_master AS m,"
      " pragma_foreign_key_list(m.name, ?2) AS f"
      " WHERE m.type='table' AND f.\"table\"=?1 COLLATE NOCASE"
      " AND f.on_update NOT IN ('NO ACTION', 'RESTRICT')", p->zSchema),
      &pStmt);
  if( rc!=SQLITE_OK ) return rc;
  sqlite3_bind_text(pStmt, 1, p->zName, -1, SQLITE_STATIC);
  sqlite3_bind_text(pStmt, 2, p->zSchema, -1, SQLITE_STATIC);
  while( (rc = sqlite3_step(pStmt))==SQLITE_ROW ){
    const char *zTo = (const char*)sqlite3_column_text(pStmt, 1);
    for(i=0; i<p->nCol; i++){
      int bRef;
      if( !aBad[i] ) continue;
      if( zTo ){
        bRef = sqlite3_stricmp(zTo, p->azCol[i])==0;
      }else{
        int k;
        for(bRef=0, k=0; k<p->nPk; k++) bRef |= p->aiPk[k]==i;
      }
      if( bRef ) break;
    }
    if( i<p->nCol ){
      rc = jobErrorAt(pJob, SQLITE_ERROR, p, i, 0,
          "table \"%w\" references it with ON UPDATE %s, which undo could"
          " not reverse exactly", sqlite3_column_text(pStmt, 0),
          sqlite3_column_text(pStmt, 2));
      break;
    }
  }
  if( rc==SQLITE_DONE ) rc = SQLITE_OK;
  else if( rc!=SQLITE_ERROR ) rc = jobSqlError(pJob, rc);
  sqlite3_finalize(pStmt);
  return rc;
}

/* Refuse a table whose rows cannot be found again by value. */
static int refuse_unlocatable(repair_job *pJob, const utf8ext_table *p){
  if( p->zRowid==0 && p->nPk>255 ){
    /* the log keeps the count of key parts in one byte */
    return jobErrorAt(pJob, SQLITE_ERROR, p, -1, 0,
        "its primary key has %d columns, more than the 255 the log can keep",
        p->nPk);
  }
  if( p->zRowid || (p->bWithoutRowid && p->nPk>0) ) return SQLITE_OK;
  return jobErrorAt(pJob, SQLITE_ERROR, p, -1, 0,
      "its columns take all of the names rowid, _rowid_ and oid, so its rows"
      " cannot be found again by rowid");
}

/* ---- the row's fingerprint ---------------------------------------------- */

/*
** A rowid finds the same row for ever only when it is the INTEGER PRIMARY
** KEY: VACUUM may renumber every other rowid. For a table found by such an
** unstable rowid the log keeps a fingerprint of the row as the repair left
** it (every ordinary column, 128 bits), and undo writes only into a row
** that still has it. A rowid table's declared key that is not its rowid
** always has an index of origin 'pk'; the INTEGER PRIMARY KEY has none.
*/
static int fp_open(repair_job *pJob, const utf8ext_table *p){
  sqlite3_stmt *pStmt;
  int rc, nStep, iPass, i, bStable = 0;
  if( p->zRowid==0 ) return SQLITE_OK;
  if( p->nPk==1 ){
    rc = jobPrepare(pJob, sqlite3_mprintf("SELECT count(*) FROM"
        " pragma_index_list(?1, ?2) WHERE origin='pk'"), &pStmt);
    if( rc!=SQLITE_OK ) return rc;
    sqlite3_bind_text(pStmt, 1, p->zFrom, -1, SQLITE_STATIC);
    sqlite3_bind_text(pStmt, 2, p->zSchema, -1, SQLITE_STATIC);
    rc = sqlite3_step(pStmt);
    if( rc==SQLITE_ROW ) bStable = sqlite3_column_int(pStmt, 0)==0;
    rc = sqlite3_finalize(pStmt);
    if( rc!=SQLITE_OK ) return jobSqlError(pJob, rc);
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
    sqlite3_str_appendf(s, " FROM \"%w\".\"%w\" AS \"%w\" WHERE ",
                        p->zSchema, p->zFrom, p->zFrom);
    utf8ext_append_locator(s, p, 1);
    if( sqlite3_str_errcode(s)!=SQLITE_OK ){
      sqlite3_free(sqlite3_str_finish(s));
      return SQLITE_NOMEM;
    }
    rc = jobPrepare(pJob, sqlite3_str_finish(s), &pJob->apFp[pJob->nFp]);
    if( rc!=SQLITE_OK ) return rc;
    pJob->nFp++;
  }
  return SQLITE_OK;
}

static void fp_close(repair_job *pJob){
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

/*
** The fingerprint of the row of p with rowid iRowid into out[16], read by
** the statements fp_open() prepared.
*/
static int row_fingerprint(repair_job *pJob, const utf8ext_table *p,
                           sqlite3_int64 iRowid, unsigned char out[16]){
  sqlite3_uint64 h[2] = { 0xCBF29CE484222325ull, 0x84222325CBF29CE4ull };
  int i, k, rc = SQLITE_OK;
  for(i=0; rc==SQLITE_OK && i<pJob->nFp; i++){
    sqlite3_stmt *pStmt = pJob->apFp[i];
    sqlite3_bind_int64(pStmt, 1, iRowid);
    rc = sqlite3_step(pStmt);
    if( rc==SQLITE_ROW ){
      rc = SQLITE_OK;
      for(k=1; rc==SQLITE_OK && k<sqlite3_column_count(pStmt); k++){
        rc = fp_value(h, sqlite3_column_value(pStmt, k), p->eTextEnc);
      }
    }else if( rc==SQLITE_DONE ){
      rc = jobErrorAt(pJob, SQLITE_ERROR, p, -1, 0, "no row has rowid %lld",
                      iRowid);
    }else{
      rc = jobSqlError(pJob, rc);
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

/*
** 1 if the log exists in the job's schema, 0 if not; a table of that name
** with other columns is an error.
*/
static int log_exists(repair_job *pJob, int *pbExists){
  sqlite3_stmt *pStmt;
  int rc = jobPrepare(pJob, sqlite3_mprintf(
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
      rc = jobError(pJob, SQLITE_ERROR, "\"%w\"." UTF8EXT_LOG_TABLE " is a %s,"
          " not a utf8ext repair log; rename it", pJob->zSchema, zType);
    }else if( zTriggers ){
      /* A trigger on the log would act on every write of repair and undo. */
      rc = jobError(pJob, SQLITE_ERROR, "\"%w\"." UTF8EXT_LOG_TABLE " has"
          " triggers (%s), which would act on every log write; drop them",
          pJob->zSchema, zTriggers);
    }else if( z && strcmp(z, LOG_COLUMNS)==0
           && (zShape==0 || strcmp(zShape, LOG_SHAPE)!=0 || bKeyIndex) ){
      /* undo reads the log newest first by id and deletes by id, and finds
      ** rows by rid: an id that is not the rowid (INTEGER PRIMARY KEY, not
      ** DESC, not WITHOUT ROWID) may be NULL, and a rid of other affinity
      ** may not hold the rowid exactly */
      rc = jobError(pJob, SQLITE_ERROR, "\"%w\"." UTF8EXT_LOG_TABLE " has the"
          " log's columns but not its declaration (types and keys: %s%s; a"
          " log's: %s, id its rowid), so it is not a utf8ext repair log;"
          " rename it", pJob->zSchema, zShape ? zShape : "",
          bKeyIndex ? ", id not its rowid" : "", LOG_SHAPE);
    }else if( z && strcmp(z, LOG_COLUMNS)==0 ){
      *pbExists = 1;
    }else if( z ){
      rc = jobError(pJob, SQLITE_ERROR, "\"%w\"." UTF8EXT_LOG_TABLE " exists"
          " but is not a utf8ext repair log (its columns are %s, not %s);"
          " rename it", pJob->zSchema, z, LOG_COLUMNS);
    }
  }else{
    rc = jobSqlError(pJob, rc);
  }
  sqlite3_finalize(pStmt);
  return rc;
}

/* Create the log if it does not exist, and prepare its INSERT. */
static int log_open(repair_job *pJob){
  int bExists, rc;
  if( pJob->pLogInsert ) return SQLITE_OK;
  rc = log_exists(pJob, &bExists);
  if( rc==SQLITE_OK && !bExists ){
    char *zSql = sqlite3_mprintf(LOG_CREATE, pJob->zSchema);
    if( zSql==0 ) return SQLITE_NOMEM;
    rc = jobExec(pJob, zSql);
    sqlite3_free(zSql);
  }
  /* A run's log rows take ids that follow each other, from one after a
  ** gap, and one time: undo puts a row's entries back together only when
  ** their ids follow each other and their method and time agree, so two
  ** runs' entries for one key are never taken for one run's */
  if( rc==SQLITE_OK ){
    sqlite3_stmt *pMax;
    rc = jobPrepare(pJob, sqlite3_mprintf("SELECT max(id),"
        " strftime('%%Y-%%m-%%d %%H:%%M:%%f', 'now')"
        " FROM \"%w\"." UTF8EXT_LOG_TABLE, pJob->zSchema), &pMax);
    if( rc==SQLITE_OK ){
      rc = sqlite3_step(pMax);
      if( rc==SQLITE_ROW ){
        sqlite3_int64 iMax = sqlite3_column_int64(pMax, 0);
        int bEmpty = sqlite3_column_type(pMax, 0)==SQLITE_NULL;
        pJob->zAt = utf8ext_column_dup(pMax, 1);
        rc = pJob->zAt ? SQLITE_OK : SQLITE_NOMEM;
        if( rc==SQLITE_OK && iMax>=((sqlite3_int64)1<<62) ){
          rc = jobError(pJob, SQLITE_ERROR, "\"%w\"." UTF8EXT_LOG_TABLE
              " has ids near the largest integer (%lld), past which a"
              " run's log rows could not take ids that follow each other;"
              " undo or empty it first", pJob->zSchema, iMax);
        }
        pJob->iNextId = bEmpty ? 1 : iMax+2;
      }else{
        rc = jobSqlError(pJob, rc);
      }
      sqlite3_finalize(pMax);
    }
  }
  /* OR ABORT: an ON CONFLICT clause of the log's own (IGNORE, REPLACE)
  ** could drop this row or another silently */
  if( rc==SQLITE_OK ){
    rc = jobPrepare(pJob, sqlite3_mprintf(
        "INSERT OR ABORT INTO \"%w\"." UTF8EXT_LOG_TABLE
        "(tbl, col, rid, key, pk, original, repaired, method, rowhash, id, at)"
        " VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)", pJob->zSchema),
        &pJob->pLogInsert);
  }
  return rc;
}

/* ---- repair ------------------------------------------------------------------- */

/*
** One row to repair, found in the first pass: how to find it again and
** which of its columns hold ill-formed TEXT.
*/
typedef struct repair_row repair_row;
struct repair_row {
  sqlite3_int64 iRowNo;       /* Its place in the scan order */
  sqlite3_value **apLoc;      /* The rowid, or the key parts */
  int *aiCol;                 /* Columns to repair, ascending */
  int nCol;                   /* Entries in aiCol */
};

/* Free the nRow rows of a, nLoc locator values each. */
static void free_rows(repair_row *a, sqlite3_int64 nRow, int nLoc){
  sqlite3_int64 r;
  int k;
  for(r=0; r<nRow; r++){
    /* apLoc is NULL when its allocation failed; its entries NULL or set */
    for(k=0; a[r].apLoc && k<nLoc; k++) sqlite3_value_free(a[r].apLoc[k]);
    sqlite3_free(a[r].apLoc);
    sqlite3_free(a[r].aiCol);
  }
  sqlite3_free(a);
}

/* Number of values that find a row of p: the rowid, or its key parts. */
static int locator_size(const utf8ext_table *p){
  return p->zRowid ? 1 : p->nPk;
}

/* qsort() order of rows: scan order (a wide table's passes, merged). */
static int repair_row_cmp(const void *a, const void *b){
  const repair_row *x = a, *y = b;
  if( x->iRowNo!=y->iRowNo ) return x->iRowNo<y->iRowNo ? -1 : 1;
  return (x->aiCol[0]>y->aiCol[0]) - (x->aiCol[0]<y->aiCol[0]);
}

/*
** Join the entries of a[0..*pn) that are one row (a wide table read in
** passes gives one entry per pass), sorted into scan order first.
*/
static int merge_rows(repair_row *a, sqlite3_int64 *pn, int nLoc){
  sqlite3_int64 i, o = 0;
  int k;
  if( *pn<2 ) return SQLITE_OK;
  qsort(a, (size_t)*pn, sizeof(repair_row), repair_row_cmp);
  for(i=0; i<*pn; i++){
    if( o>0 && a[o-1].iRowNo==a[i].iRowNo ){
      repair_row *r = &a[o-1];
      int *aiNew = sqlite3_realloc64(r->aiCol, sizeof(int)*(r->nCol+a[i].nCol));
      if( aiNew==0 ) return SQLITE_NOMEM;
      memcpy(aiNew+r->nCol, a[i].aiCol, sizeof(int)*a[i].nCol);
      r->aiCol = aiNew;
      r->nCol += a[i].nCol;
      for(k=0; k<nLoc; k++) sqlite3_value_free(a[i].apLoc[k]);
      sqlite3_free(a[i].apLoc);
      sqlite3_free(a[i].aiCol);
    }else{
      a[o++] = a[i];
    }
  }
  *pn = o;
  return SQLITE_OK;
}

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
** Key part k (v, read by the scan pScan) of a row to repair: in a UTF-16
** database a TEXT part that starts with U+FEFF cannot be bound as it is
** stored (SQLite drops a leading U+FEFF from bound UTF-16 text), so the
** row could not be found by it, and another row, whose key is the same
** text without it, would be. Refused here, before that row is looked for.
*/
static int key_part_bindable(repair_job *pJob, const utf8ext_table *p,
                             sqlite3_stmt *pScan, int k, sqlite3_value *v){
  const unsigned char *z;
  sqlite3_int64 nz;
  char *zPk;
  int rc;
  if( p->eTextEnc==SQLITE_UTF8 || sqlite3_value_type(v)!=SQLITE_TEXT ){
    return SQLITE_OK;
  }
  if( !utf8ext_stored_text(v, p->eTextEnc, &z, &nz) ) return SQLITE_NOMEM;
  if( !starts_with_bom(z, nz, p->eTextEnc) ) return SQLITE_OK;
  zPk = utf8ext_scan_pk_literal(p, pScan);
  if( zPk==0 ) return SQLITE_NOMEM;
  rc = jobErrorAt(pJob, SQLITE_ERROR, p, p->aiPk[k], zPk, "the key starts"
      " with U+FEFF, which SQLite drops from bound UTF-16 text, so the row"
      " could not be found again");
  sqlite3_free(zPk);
  return rc;
}

/*
** First pass: read p once and list the rows with TEXT the method repairs
** in a column that can be written; aBad[i] marks the columns that have any.
*/
static int repair_find(repair_job *pJob, const utf8ext_table *p,
                       repair_row **paRow, sqlite3_int64 *pnRow,
                       unsigned char *aBad){
  sqlite3_stmt *pScan = 0;
  repair_row *aRow = 0;
  sqlite3_int64 nRow = 0, nAlloc = 0;
  int nLoc = locator_size(p);
  int nWidth = utf8ext_scan_width(pJob->db, p);
  int *aiCol = sqlite3_malloc64(sizeof(int)*(p->nCol+1));
  int rc = aiCol ? SQLITE_OK : SQLITE_NOMEM;
  int iPass;
  for(iPass=0; rc==SQLITE_OK && iPass<p->nCol; iPass+=nWidth){
    int iEnd = iPass+nWidth<p->nCol ? iPass+nWidth : p->nCol;
    sqlite3_int64 iRowNo = 0;
    rc = jobPrepare(pJob, utf8ext_scan_sql(p, iPass, nWidth), &pScan);
    while( rc==SQLITE_OK && (rc = sqlite3_step(pScan))==SQLITE_ROW ){
      int i, n = 0, k;
      repair_row *r;
      rc = SQLITE_OK;
      iRowNo++;
      for(i=iPass; i<iEnd; i++){
        int bRepair;
        if( p->aGenerated[i] ) continue;
        /* one sqlite3_column_*() call (and mutex) per column, as the audit */
        bRepair = value_needs_repair(pJob, p, i,
            sqlite3_column_value(pScan, UTF8EXT_SCAN_COL(p, i-iPass)));
        if( bRepair<0 ){ rc = SQLITE_NOMEM; break; }
        if( bRepair ){
          aiCol[n++] = i;
          aBad[i] = 1;
        }
      }
      if( rc!=SQLITE_OK || n==0 ) continue;
      if( nRow==nAlloc ){
        sqlite3_int64 nNew = nAlloc ? 2*nAlloc : 16;
        repair_row *aNew = sqlite3_realloc64(aRow, nNew*sizeof(repair_row));
        if( aNew==0 ){ rc = SQLITE_NOMEM; break; }
        aRow = aNew;
        nAlloc = nNew;
      }
      r = &aRow[nRow];
      memset(r, 0, sizeof(*r));
      r->iRowNo = iRowNo;
      r->apLoc = sqlite3_malloc64(sizeof(sqlite3_value*)*(nLoc+1));
      if( r->apLoc ) memset(r->apLoc, 0, sizeof(sqlite3_value*)*(nLoc+1));
      r->aiCol = sqlite3_malloc64(sizeof(int)*n);
      nRow++;     /* free_rows() frees it from here: NULL or set, never junk */
      if( r->apLoc==0 || r->aiCol==0 ){ rc = SQLITE_NOMEM; break; }
      memcpy(r->aiCol, aiCol, sizeof(int)*n);
      r->nCol = n;
      for(k=0; k<nLoc; k++){
        sqlite3_value *v = sqlite3_column_value(pScan,
            p->zRowid ? UTF8EXT_SCAN_ROWID : UTF8EXT_SCAN_KEY+k);
        if( p->zRowid==0 ){
          rc = key_part_bindable(pJob, p, pScan, k, v);
          if( rc!=SQLITE_OK ) break;
        }
        r->apLoc[k] = sqlite3_value_dup(v);
        if( r->apLoc[k]==0 ){ rc = SQLITE_NOMEM; break; }
      }
    }
    if( rc==SQLITE_DONE ) rc = SQLITE_OK;
    else if( rc!=SQLITE_OK && rc!=SQLITE_NOMEM ) rc = jobSqlError(pJob, rc);
    sqlite3_finalize(pScan);
    pScan = 0;
  }
  if( rc==SQLITE_OK && nWidth<p->nCol ) rc = merge_rows(aRow, &nRow, nLoc);
  sqlite3_free(aiCol);
  *paRow = aRow;
  *pnRow = nRow;
  return rc;
}

/* Copy z[0..n) into a new buffer (at least one byte, so never NULL). */
static unsigned char *copy_bytes(const void *z, sqlite3_int64 n){
  unsigned char *p = sqlite3_malloc64(n+1);
  if( p && n>0 ) memcpy(p, z, (size_t)n);
  return p;
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
  *pzOut = copy_bytes(pJob->aMoji, nOut);
  if( *pzOut==0 ) return SQLITE_NOMEM;
  *pnOut = nOut;
  /* idempotent: the repair must be what utf8_unmojibake leaves alone.
  ** Short of UTF8_MOJI_MAX_DEPTH misreadings it is (core/mojibake.c,
  ** rule 7: nothing is undone otherwise); at it, the passes stopped and
  ** more may be left. */
  if( r<UTF8_MOJI_MAX_DEPTH ) return SQLITE_OK;
  r = utf8ext_unmojibake_buf(*pzOut, nOut, &pJob->aMoji, &pJob->nMoji, &nAgain, 0);
  if( r<0 ) return SQLITE_NOMEM;
  return r ? SQLITE_RANGE : SQLITE_OK;
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
  if( pJob->bMoji ) return repair_moji_value(pJob, p, iCol, z, n, pzOut, pnOut);
  len = pJob->bFix ? utf8_fix(z, (size_t)n, fffd, 3, UTF8_FIX_SUBPART, 0)
      : pJob->bWhole ? utf8_recode_whole(z, (size_t)n, pJob->enc, 0)
      : utf8_recode(z, (size_t)n, pJob->enc, 0);
  *pzOut = 0;
  if( len>(size_t)limit ) return SQLITE_TOOBIG;
  *pzOut = sqlite3_malloc64(len+1);
  if( *pzOut==0 ) return SQLITE_NOMEM;
  if( pJob->bFix ) utf8_fix(z, (size_t)n, fffd, 3, UTF8_FIX_SUBPART, *pzOut);
  else if( pJob->bWhole ) utf8_recode_whole(z, (size_t)n, pJob->enc, *pzOut);
  else utf8_recode(z, (size_t)n, pJob->enc, *pzOut);
  *pnOut = (sqlite3_int64)len;
  return SQLITE_OK;
}

/* Bind the locator apLoc (nLoc values) from parameter iParam on. */
static void bind_locator(sqlite3_stmt *pStmt, int iParam,
                         sqlite3_value **apLoc, int nLoc){
  int k;
  for(k=0; k<nLoc; k++) sqlite3_bind_value(pStmt, iParam+k, apLoc[k]);
}

/*
** Prepare "UPDATE OR ABORT t SET c1=?1, ... WHERE <locator from ?n+1>"
** for the columns aiCol[0..n).
*/
static int prepare_update(repair_job *pJob, const utf8ext_table *p,
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
  return jobPrepare(pJob, sqlite3_str_finish(s), pp);
}

/*
** Prepare "SELECT rowid, key parts, c1, ... FROM t WHERE <locator>" for
** the columns aiCol[0..n): column aiCol[i] is result column READ_COL(p, i).
*/
#define READ_COL(p, i) UTF8EXT_SCAN_COL(p, i)
static int prepare_read(repair_job *pJob, const utf8ext_table *p,
                        const int *aiCol, int n, sqlite3_stmt **pp){
  sqlite3_str *s = sqlite3_str_new(0);
  int i;
  utf8ext_append_select_head(s, p);
  for(i=0; i<n; i++){
    sqlite3_str_appendall(s, ", ");
    utf8ext_append_column(s, p, aiCol[i]);
  }
  sqlite3_str_appendf(s, " FROM \"%w\".\"%w\" AS \"%w\" WHERE ",
                      p->zSchema, p->zFrom, p->zFrom);
  utf8ext_append_locator(s, p, 1);
  if( sqlite3_str_errcode(s)!=SQLITE_OK ){
    sqlite3_free(sqlite3_str_finish(s));
    return SQLITE_NOMEM;
  }
  return jobPrepare(pJob, sqlite3_str_finish(s), pp);
}

/*
** Step pRead (bound to a locator) to its one row; anything else is an
** error about the row zPk of p.
*/
static int read_one_row(repair_job *pJob, const utf8ext_table *p,
                        sqlite3_stmt *pRead, const char *zPk){
  int rc = sqlite3_step(pRead);
  if( rc==SQLITE_ROW ) return SQLITE_OK;
  if( rc==SQLITE_DONE ){
    return jobErrorAt(pJob, SQLITE_ERROR, p, -1, zPk,
                      "the row is not there (any more)");
  }
  return jobSqlError(pJob, rc);
}

/* True if column iCol of pRow stores exactly z[0..n) as TEXT. */
static int stored_equals(sqlite3_stmt *pRow, int iCol, int eTextEnc,
                         const void *z, sqlite3_int64 n){
  const unsigned char *zHave;
  sqlite3_int64 nHave;
  if( sqlite3_column_type(pRow, iCol)!=SQLITE_TEXT ) return 0;
  if( !utf8ext_stored_text(sqlite3_column_value(pRow, iCol), eTextEnc,
                           &zHave, &nHave) ) return 0;
  return nHave==n && (n==0 || memcmp(zHave, z, (size_t)n)==0);
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

/*
** Second pass, one row: read the bad columns again, repair them, write
** them in one UPDATE, read them back, and log each original.
*/
static int repair_row_write(repair_job *pJob, const utf8ext_table *p,
                            repair_row *r, sqlite3_stmt **ppRead,
                            sqlite3_stmt **ppUpdate, int *aiLastCols,
                            int *pnLastCols){
  int nLoc = locator_size(p);
  int n = r->nCol;
  int nColLimit = sqlite3_limit(pJob->db, SQLITE_LIMIT_COLUMN, -1);
  sqlite3_stmt *pRead = 0;
  unsigned char aFp[16];      /* the row's fingerprint, when it needs one */
  unsigned char **az = 0;     /* az[2i]: original i as stored; az[2i+1]: repaired */
  sqlite3_int64 *an = 0;      /* their lengths */
  char *zPk = 0;
  sqlite3_str *pKey = 0;
  int rc, i, k;

  az = sqlite3_malloc64(sizeof(unsigned char*)*2*n);
  if( az ) memset(az, 0, sizeof(unsigned char*)*2*n);   /* before any goto */
  an = sqlite3_malloc64(sizeof(sqlite3_int64)*2*n);
  if( az==0 || an==0 ){ rc = SQLITE_NOMEM; goto done; }

  /* The row is read back whole by one SELECT: its key and every column
  ** changed must fit in one result (SQLITE_LIMIT_COLUMN) */
  if( 1+p->nPk+n > nColLimit ){
    rc = jobErrorAt(pJob, SQLITE_ERROR, p, -1, 0, "a row has %d columns to"
        " repair, more than one SELECT can read back with its key"
        " (SQLITE_LIMIT_COLUMN %d)", n, nColLimit);
    goto done;
  }

  /* The statements for this set of columns; the last ones are reused. */
  if( *ppUpdate==0 || *pnLastCols!=n
   || memcmp(aiLastCols, r->aiCol, sizeof(int)*n)!=0 ){
    sqlite3_finalize(*ppUpdate);
    sqlite3_finalize(*ppRead);
    *ppUpdate = *ppRead = 0;
    *pnLastCols = 0;
    rc = prepare_update(pJob, p, r->aiCol, n, ppUpdate);
    if( rc==SQLITE_OK ) rc = prepare_read(pJob, p, r->aiCol, n, ppRead);
    if( rc!=SQLITE_OK ) goto done;
    memcpy(aiLastCols, r->aiCol, sizeof(int)*n);
    *pnLastCols = n;
  }
  pRead = *ppRead;

  /* Read the row as it is now; keep each original, repair it. */
  bind_locator(pRead, 1, r->apLoc, nLoc);
  rc = read_one_row(pJob, p, pRead, 0);
  if( rc!=SQLITE_OK ) goto done;
  zPk = utf8ext_scan_pk_literal(p, pRead);
  if( zPk==0 ){ rc = SQLITE_NOMEM; goto done; }
  for(i=0; i<n; i++){
    int c = READ_COL(p, i);
    const unsigned char *z;
    sqlite3_int64 nz;
    if( !utf8ext_stored_text(sqlite3_column_value(pRead, c), p->eTextEnc,
                             &z, &nz)
     || (az[2*i] = copy_bytes(z, nz))==0 ){
      rc = SQLITE_NOMEM;
      goto done;
    }
    an[2*i] = nz;
    if( starts_with_bom(z, nz, p->eTextEnc) ){
      rc = jobErrorAt(pJob, SQLITE_ERROR, p, r->aiCol[i], zPk, "the value"
          " starts with U+FEFF, which SQLite drops from bound UTF-16 text, so"
          " undo could not write the original back");
      goto done;
    }
    if( pJob->bMoji && p->eTextEnc!=SQLITE_UTF8
     && !utf8ext_utf16_well_formed(z, nz, p->eTextEnc) ){
      rc = SQLITE_ABORT;      /* the first pass saw it well-formed */
    }else{
      z = sqlite3_column_text(pRead, c);
      if( z==0 ){ rc = SQLITE_NOMEM; goto done; }
      rc = repair_value(pJob, p, r->aiCol[i], z, sqlite3_column_bytes(pRead, c),
                        &az[2*i+1], &an[2*i+1]);
    }
    if( rc==SQLITE_TOOBIG ){
      rc = jobErrorAt(pJob, SQLITE_TOOBIG, p, r->aiCol[i], zPk,
                      "the repaired value would be longer than "
                      "SQLITE_LIMIT_LENGTH");
    }else if( rc==SQLITE_ABORT ){
      rc = jobErrorAt(pJob, SQLITE_ERROR, p, r->aiCol[i], zPk,
                      "the value changed while the repair ran");
    }else if( rc==SQLITE_RANGE ){
      rc = jobErrorAt(pJob, SQLITE_ERROR, p, r->aiCol[i], zPk,
          "it was misread more than %d times: utf8_unmojibake leaves "
          "mojibake in it, so a second repair would change it again; "
          "repair it by hand", UTF8_MOJI_MAX_DEPTH);
    }
    if( rc!=SQLITE_OK ) goto done;
    if( !key_repair_findable(p, r->aiCol[i], az[2*i+1], an[2*i+1]) ){
      rc = jobErrorAt(pJob, SQLITE_ERROR, p, r->aiCol[i], zPk, "the repaired"
          " key would start with U+FEFF, which SQLite drops from bound UTF-16"
          " text, so undo could not find the row again");
      goto done;
    }
  }
  sqlite3_reset(pRead);

  /* One UPDATE for all of them. */
  for(i=0; i<n; i++){
    sqlite3_bind_text64(*ppUpdate, i+1, (const char*)az[2*i+1], an[2*i+1],
                        SQLITE_STATIC, SQLITE_UTF8);
  }
  bind_locator(*ppUpdate, n+1, r->apLoc, nLoc);
  rc = sqlite3_step(*ppUpdate);
  if( rc!=SQLITE_DONE ){
    rc = jobErrorAt(pJob, rc, p, r->aiCol[0], zPk, "%s",
                    sqlite3_errmsg(pJob->db));
    sqlite3_reset(*ppUpdate);
    goto done;
  }
  sqlite3_reset(*ppUpdate);
  if( sqlite3_changes(pJob->db)!=1 ){
    rc = jobErrorAt(pJob, SQLITE_ERROR, p, r->aiCol[0], zPk,
                    "the UPDATE changed %d rows, not 1",
                    sqlite3_changes(pJob->db));
    goto done;
  }

  /* Find it again, by the key as it is after the repair, and compare. */
  if( p->zRowid==0 ){
    for(k=0; k<p->nPk; k++){
      for(i=0; i<n && r->aiCol[i]!=p->aiPk[k]; i++){}
      if( i<n ){
        sqlite3_bind_text64(pRead, k+1, (const char*)az[2*i+1], an[2*i+1],
                            SQLITE_STATIC, SQLITE_UTF8);
      }else{
        sqlite3_bind_value(pRead, k+1, r->apLoc[k]);
      }
    }
  }else{
    bind_locator(pRead, 1, r->apLoc, nLoc);
  }
  rc = read_one_row(pJob, p, pRead, zPk);
  if( rc!=SQLITE_OK ) goto done;
  for(i=0; i<n; i++){
    int c = READ_COL(p, i);
    const unsigned char *z = sqlite3_column_text(pRead, c);
    if( sqlite3_column_type(pRead, c)!=SQLITE_TEXT
     || sqlite3_column_bytes(pRead, c)!=an[2*i+1]
     || (an[2*i+1]>0 && (z==0 || memcmp(z, az[2*i+1], (size_t)an[2*i+1])!=0)) ){
      rc = jobErrorAt(pJob, SQLITE_ERROR, p, r->aiCol[i], zPk,
                      "it reads back different bytes than were written");
      goto done;
    }
  }

  /* The log: the locator after the repair, the original, the repair. */
  sqlite3_free(zPk);
  zPk = utf8ext_scan_pk_literal(p, pRead);
  if( zPk==0 ){ rc = SQLITE_NOMEM; goto done; }
  if( p->zRowid==0 ){
    pKey = sqlite3_str_new(0);
    sqlite3_str_appendchar(pKey, 1, (char)p->nPk);
    for(k=0; k<p->nPk; k++){
      key_append(pKey, sqlite3_column_value(pRead, UTF8EXT_SCAN_KEY+k),
                 p->eTextEnc);
    }
    if( sqlite3_str_errcode(pKey)!=SQLITE_OK || sqlite3_str_length(pKey)==0 ){
      rc = SQLITE_NOMEM;
      goto done;
    }
  }
  if( pJob->nFp>0 ){
    rc = row_fingerprint(pJob, p, sqlite3_value_int64(r->apLoc[0]), aFp);
    if( rc!=SQLITE_OK ) goto done;
  }
  rc = log_open(pJob);
  for(i=0; rc==SQLITE_OK && i<n; i++){
    sqlite3_stmt *pIns = pJob->pLogInsert;
    int c = READ_COL(p, i);
    const unsigned char *zStored;
    sqlite3_int64 nStored;
    if( !utf8ext_stored_text(sqlite3_column_value(pRead, c), p->eTextEnc,
                             &zStored, &nStored) ){
      rc = SQLITE_NOMEM;
      break;
    }
    sqlite3_bind_text(pIns, 1, p->zName, -1, SQLITE_STATIC);
    sqlite3_bind_text(pIns, 2, p->azCol[r->aiCol[i]], -1, SQLITE_STATIC);
    if( p->zRowid ){
      sqlite3_bind_value(pIns, 3, r->apLoc[0]);
      sqlite3_bind_null(pIns, 4);
    }else{
      sqlite3_bind_null(pIns, 3);
      sqlite3_bind_blob(pIns, 4, sqlite3_str_value(pKey),
                        sqlite3_str_length(pKey), SQLITE_STATIC);
    }
    sqlite3_bind_text(pIns, 5, zPk, -1, SQLITE_STATIC);
    sqlite3_bind_blob64(pIns, 6, az[2*i], an[2*i], SQLITE_STATIC);
    sqlite3_bind_blob64(pIns, 7, zStored, nStored, SQLITE_TRANSIENT);
    sqlite3_bind_text(pIns, 8, pJob->zMethod, -1, SQLITE_STATIC);
    if( pJob->nFp>0 ) sqlite3_bind_blob(pIns, 9, aFp, 16, SQLITE_STATIC);
    sqlite3_bind_int64(pIns, 10, pJob->iNextId);
    sqlite3_bind_text(pIns, 11, pJob->zAt, -1, SQLITE_STATIC);
    rc = sqlite3_step(pIns);
    if( rc==SQLITE_DONE && sqlite3_changes(pJob->db)!=1 ){
      rc = jobErrorAt(pJob, SQLITE_ERROR, p, r->aiCol[i], zPk, "writing the"
          " log: the INSERT changed %d rows, not 1", sqlite3_changes(pJob->db));
    }else if( rc!=SQLITE_DONE ){
      rc = jobErrorAt(pJob, rc, p, r->aiCol[i], zPk, "writing the log: %s",
                      sqlite3_errmsg(pJob->db));
    }else{
      rc = SQLITE_OK;
      pJob->iNextId++;
    }
    sqlite3_reset(pIns);
    sqlite3_clear_bindings(pIns);
  }
  if( rc==SQLITE_OK ) pJob->nChanged += n;

done:
  if( az ){
    for(i=0; i<2*n; i++) sqlite3_free(az[i]);
  }
  sqlite3_free(az);
  sqlite3_free(an);
  sqlite3_free(zPk);
  if( pKey ) sqlite3_free(sqlite3_str_finish(pKey));
  /* the values bound SQLITE_STATIC are freed above: drop the bindings */
  if( pRead ){
    sqlite3_reset(pRead);
    sqlite3_clear_bindings(pRead);
  }
  if( *ppUpdate ) sqlite3_clear_bindings(*ppUpdate);
  return rc;
}

/*
** Repair table zName of the job's schema (type and wr as
** utf8ext_list_tables() gives them; bNamed if the caller named it).
*/
static int repair_table(repair_job *pJob, const char *zName,
                        const char *zType, int bWithoutRowid, int bNamed){
  utf8ext_table *p = 0;
  repair_row *aRow = 0;
  sqlite3_int64 nRow = 0, iRow;
  unsigned char *aBad = 0;
  sqlite3_stmt *pRead = 0, *pUpdate = 0;
  int *aiLastCols = 0, nLastCols = 0;
  int rc;

  if( bNamed ){
    const char *zWhy = 0;
    if( strcmp(zType, "view")==0 ) zWhy = "it is a view, not a table";
    else if( strcmp(zType, "virtual")==0 ){
      zWhy = "it is a virtual table: its module keeps its data";
    }else if( strcmp(zType, "shadow")==0 ){
      zWhy = "it is a shadow table of a virtual table, whose module owns it";
    }else if( sqlite3_strnicmp(zName, "sqlite_", 7)==0 ){
      zWhy = "it is SQLite's own table";
    }else if( sqlite3_stricmp(zName, UTF8EXT_LOG_TABLE)==0 ){
      zWhy = "it is the repair log";
    }
    if( zWhy ){
      sqlite3_str *s = sqlite3_str_new(0);
      char *z;
      utf8ext_append_escaped(s, (const unsigned char*)zName,
                             (sqlite3_int64)strlen(zName));
      z = sqlite3_str_finish(s);
      if( z==0 ) return SQLITE_NOMEM;
      rc = jobError(pJob, SQLITE_ERROR, "table \"%s\": %s", z, zWhy);
      sqlite3_free(z);
      return rc;
    }
  }
  rc = utf8ext_table_load(pJob->db, pJob->zSchema, zName, bWithoutRowid, &p,
                          &pJob->zErr);
  if( rc!=SQLITE_OK ) return rc;
  aBad = sqlite3_malloc64(p->nCol);
  aiLastCols = sqlite3_malloc64(sizeof(int)*p->nCol);
  if( aBad==0 || aiLastCols==0 ){ rc = SQLITE_NOMEM; goto done; }
  memset(aBad, 0, p->nCol);
  rc = repair_find(pJob, p, &aRow, &nRow, aBad);
  if( rc!=SQLITE_OK || nRow==0 ) goto done;
  rc = utf8ext_table_load_key(pJob->db, p, &pJob->zErr);
  if( rc!=SQLITE_OK ) goto done;
  rc = refuse_unlocatable(pJob, p);
  if( rc==SQLITE_OK ) rc = refuse_update_triggers(pJob, p);
  if( rc==SQLITE_OK ) rc = refuse_fk_actions(pJob, p, aBad);
  if( rc==SQLITE_OK ) rc = fp_open(pJob, p);
  for(iRow=0; rc==SQLITE_OK && iRow<nRow; iRow++){
    rc = repair_row_write(pJob, p, &aRow[iRow], &pRead, &pUpdate,
                          aiLastCols, &nLastCols);
  }

done:
  fp_close(pJob);
  sqlite3_finalize(pRead);
  sqlite3_finalize(pUpdate);
  if( p ) free_rows(aRow, nRow, locator_size(p));
  sqlite3_free(aBad);
  sqlite3_free(aiLastCols);
  utf8ext_table_free(p);
  return rc;
}

/* ---- undo --------------------------------------------------------------------- */

/*
** One row of the log, read whole before anything changes (the log is
** written as undo goes).
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

static void free_entries(log_entry *a, sqlite3_int64 n){
  sqlite3_int64 i;
  for(i=0; i<n; i++){
    sqlite3_free(a[i].zTbl);
    sqlite3_free(a[i].zCol);
    sqlite3_free(a[i].aKey);
    sqlite3_free(a[i].aOrig);
    sqlite3_free(a[i].aRep);
    sqlite3_free(a[i].aHash);
    sqlite3_free(a[i].zPk);
    sqlite3_free(a[i].zMethod);
    sqlite3_free(a[i].zAt);
  }
  sqlite3_free(a);
}

/* Copy blob column i of pStmt into *pa, *pn. */
static int dup_blob_column(sqlite3_stmt *pStmt, int i, unsigned char **pa,
                           sqlite3_int64 *pn){
  const void *z = sqlite3_column_blob(pStmt, i);
  *pn = sqlite3_column_bytes(pStmt, i);
  if( z==0 && *pn>0 ) return SQLITE_NOMEM;
  *pa = copy_bytes(z, *pn);
  return *pa ? SQLITE_OK : SQLITE_NOMEM;
}

/* Read the log rows of zTable (NULL: all), newest first. */
static int undo_read_log(repair_job *pJob, const char *zTable,
                         log_entry **pa, sqlite3_int64 *pn){
  sqlite3_stmt *pStmt;
  log_entry *a = 0;
  sqlite3_int64 n = 0, nAlloc = 0;
  int rc = jobPrepare(pJob, sqlite3_mprintf(
      "SELECT id, tbl, col, rid, key, original, repaired, pk, rowhash,"
      " method, at FROM \"%w\"." UTF8EXT_LOG_TABLE
      " WHERE ?1 IS NULL OR tbl=?1 COLLATE NOCASE ORDER BY id DESC",
      pJob->zSchema), &pStmt);
  *pa = 0;
  *pn = 0;
  if( rc!=SQLITE_OK ) return rc;
  sqlite3_bind_text(pStmt, 1, zTable, -1, SQLITE_STATIC);
  while( (rc = sqlite3_step(pStmt))==SQLITE_ROW ){
    log_entry *e;
    if( n==nAlloc ){
      sqlite3_int64 nNew = nAlloc ? 2*nAlloc : 16;
      log_entry *aNew = sqlite3_realloc64(a, nNew*sizeof(log_entry));
      if( aNew==0 ){ rc = SQLITE_NOMEM; break; }
      a = aNew;
      nAlloc = nNew;
    }
    e = &a[n++];
    memset(e, 0, sizeof(*e));
    e->id = sqlite3_column_int64(pStmt, 0);
    e->zTbl = utf8ext_column_dup(pStmt, 1);
    e->zCol = utf8ext_column_dup(pStmt, 2);
    e->zPk = utf8ext_column_dup(pStmt, 7);
    e->zMethod = utf8ext_column_dup(pStmt, 9);
    e->zAt = utf8ext_column_dup(pStmt, 10);
    if( e->zTbl==0 || e->zCol==0 || e->zMethod==0 || e->zAt==0 ){
      rc = SQLITE_NOMEM;
      break;
    }
    e->bRid = sqlite3_column_type(pStmt, 3)!=SQLITE_NULL;
    e->iRid = sqlite3_column_int64(pStmt, 3);
    if( !e->bRid ){
      rc = dup_blob_column(pStmt, 4, &e->aKey, &e->nKey);
      if( rc!=SQLITE_OK ) break;
    }
    rc = dup_blob_column(pStmt, 5, &e->aOrig, &e->nOrig);
    if( rc==SQLITE_OK ) rc = dup_blob_column(pStmt, 6, &e->aRep, &e->nRep);
    if( rc==SQLITE_OK && sqlite3_column_type(pStmt, 8)!=SQLITE_NULL ){
      rc = dup_blob_column(pStmt, 8, &e->aHash, &e->nHash);
    }
    if( rc!=SQLITE_OK ) break;
  }
  if( rc==SQLITE_DONE ) rc = SQLITE_OK;
  else if( rc!=SQLITE_NOMEM ) rc = jobSqlError(pJob, rc);
  sqlite3_finalize(pStmt);
  *pa = a;
  *pn = n;
  return rc;
}

/*
** True if entries a and b were logged for the same row of the same table
** by one run: the same method, time and fingerprint (undo_all() also asks
** that their ids follow each other; each run's entries start after a gap
** in the ids). Two runs (a 'fix' then a 'mojibake') are undone by an
** UPDATE each, the newer first: the older one's key may since be another
** row's (a key the newer run repaired), and a row found by an unstable
** rowid has a fingerprint per run, each of the row as its run left it.
*/
static int same_row(const log_entry *a, const log_entry *b){
  if( strcmp(a->zTbl, b->zTbl)!=0 || a->bRid!=b->bRid ) return 0;
  if( strcmp(a->zMethod, b->zMethod)!=0 || strcmp(a->zAt, b->zAt)!=0 ) return 0;
  if( (a->aHash==0)!=(b->aHash==0) ) return 0;
  if( a->aHash && (a->nHash!=b->nHash
                   || memcmp(a->aHash, b->aHash, (size_t)a->nHash)!=0) ) return 0;
  if( a->bRid ) return a->iRid==b->iRid;
  return a->nKey==b->nKey && memcmp(a->aKey, b->aKey, (size_t)a->nKey)==0;
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
      return jobErrorAt(pJob, SQLITE_ERROR, p, -1, e->zPk,
          "the log finds the row by rowid, which the table no longer has");
    }
    return sqlite3_bind_int64(pStmt, iParam, e->iRid);
  }
  if( p->zRowid || p->nPk==0 ){
    return jobErrorAt(pJob, SQLITE_ERROR, p, -1, e->zPk,
        "the log finds the row by its primary key, which has changed");
  }
  rc = key_bind(pStmt, iParam, e->aKey, e->nKey, p->nPk, p->eTextEnc);
  if( rc!=SQLITE_OK ){
    return jobErrorAt(pJob, SQLITE_ERROR, p, -1, e->zPk,
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

/*
** Undo the log entries a[0..n), all of one row, in one UPDATE, and remove
** them from the log.
*/
static int undo_row(repair_job *pJob, const utf8ext_table *p,
                    const log_entry *a, int n, sqlite3_stmt *pDelete){
  int *aiCol = sqlite3_malloc64(sizeof(int)*n);
  unsigned char **azOrig = sqlite3_malloc64(sizeof(unsigned char*)*n);
  sqlite3_int64 *anOrig = sqlite3_malloc64(sizeof(sqlite3_int64)*n);
  sqlite3_stmt *pUpdate = 0, *pRead = 0;
  int rc = SQLITE_OK, i, c;

  if( aiCol==0 || azOrig==0 || anOrig==0 ){ rc = SQLITE_NOMEM; goto done; }
  for(i=0; i<n; i++){
    for(c=0; c<p->nCol && sqlite3_stricmp(p->azCol[c], a[i].zCol)!=0; c++){}
    if( c==p->nCol || p->aGenerated[c] ){
      rc = jobErrorAt(pJob, SQLITE_ERROR, p, -1, a[i].zPk,
                      "column \"%w\" is no longer an ordinary column",
                      a[i].zCol);
      goto done;
    }
    aiCol[i] = c;
    azOrig[i] = a[i].aOrig;
    anOrig[i] = a[i].nOrig;
  }

  /* The row must hold exactly what the repair wrote. */
  rc = prepare_read(pJob, p, aiCol, n, &pRead);
  if( rc==SQLITE_OK ) rc = undo_bind_locator(pJob, p, &a[0], pRead, 1, 0, 0, 0, 0);
  if( rc==SQLITE_OK ) rc = read_one_row(pJob, p, pRead, a[0].zPk);
  for(i=0; rc==SQLITE_OK && i<n; i++){
    if( !stored_equals(pRead, READ_COL(p, i), p->eTextEnc,
                       a[i].aRep, a[i].nRep) ){
      rc = jobErrorAt(pJob, SQLITE_ERROR, p, aiCol[i], a[i].zPk,
          "the value is no longer what utf8_repair wrote (log row %lld); "
          "it was changed since, and undo will not overwrite that",
          a[i].id);
    }
  }
  sqlite3_reset(pRead);
  if( rc!=SQLITE_OK ) goto done;

  /* A row found by an unstable rowid must still be the row repaired. */
  for(i=0; i<n; i++){
    unsigned char aFp[16];
    if( a[i].aHash==0 ){
      /* logged by a stable rowid (INTEGER PRIMARY KEY): the table has
      ** been rebuilt without one since, and that rowid may now be any
      ** row's */
      if( a[i].bRid && pJob->nFp>0 ){
        rc = jobErrorAt(pJob, SQLITE_ERROR, p, -1, a[i].zPk, "the table was"
            " rebuilt without its INTEGER PRIMARY KEY since the repair (log"
            " row %lld), so the rowid may now find another row; undo will"
            " not guess", a[i].id);
        goto done;
      }
      continue;
    }
    if( pJob->nFp==0 || !a[i].bRid ){
      rc = jobErrorAt(pJob, SQLITE_ERROR, p, -1, a[i].zPk, "the table was"
          " rebuilt since the repair (log row %lld)", a[i].id);
      goto done;
    }
    rc = row_fingerprint(pJob, p, a[i].iRid, aFp);
    if( rc!=SQLITE_OK ) goto done;
    if( a[i].nHash!=16 || memcmp(aFp, a[i].aHash, 16)!=0 ){
      rc = jobErrorAt(pJob, SQLITE_ERROR, p, -1, a[i].zPk, "the row with this"
          " rowid is not the row utf8_repair left (log row %lld): it was"
          " edited since, or VACUUM renumbered the rowids of this table"
          " without INTEGER PRIMARY KEY; undo will not guess", a[i].id);
      goto done;
    }
  }

  /* An ON UPDATE action could not be reversed exactly. */
  {
    unsigned char *aBad = sqlite3_malloc64(p->nCol);
    if( aBad==0 ){ rc = SQLITE_NOMEM; goto done; }
    memset(aBad, 0, p->nCol);
    for(i=0; i<n; i++) aBad[aiCol[i]] = 1;
    rc = refuse_fk_actions(pJob, p, aBad);
    sqlite3_free(aBad);
    if( rc!=SQLITE_OK ) goto done;
  }

  rc = prepare_update(pJob, p, aiCol, n, &pUpdate);
  if( rc!=SQLITE_OK ) goto done;
  for(i=0; i<n; i++){
    sqlite3_bind_text64(pUpdate, i+1, (const char*)azOrig[i], anOrig[i],
                        SQLITE_STATIC, (unsigned char)p->eTextEnc);
  }
  rc = undo_bind_locator(pJob, p, &a[0], pUpdate, n+1, 0, 0, 0, 0);
  if( rc!=SQLITE_OK ) goto done;
  rc = sqlite3_step(pUpdate);
  if( rc!=SQLITE_DONE ){
    rc = jobErrorAt(pJob, rc, p, aiCol[0], a[0].zPk, "%s",
                    sqlite3_errmsg(pJob->db));
    goto done;
  }
  if( sqlite3_changes(pJob->db)!=1 ){
    rc = jobErrorAt(pJob, SQLITE_ERROR, p, aiCol[0], a[0].zPk,
                    "the UPDATE changed %d rows, not 1",
                    sqlite3_changes(pJob->db));
    goto done;
  }

  /* Read back, by the key as it is now, every byte. */
  rc = undo_bind_locator(pJob, p, &a[0], pRead, 1, aiCol, azOrig, anOrig, n);
  if( rc==SQLITE_OK ) rc = read_one_row(pJob, p, pRead, a[0].zPk);
  for(i=0; rc==SQLITE_OK && i<n; i++){
    if( !stored_equals(pRead, READ_COL(p, i), p->eTextEnc,
                       azOrig[i], anOrig[i]) ){
      rc = jobErrorAt(pJob, SQLITE_ERROR, p, aiCol[i], a[i].zPk,
          "it reads back different bytes than the original (log row %lld)",
          a[i].id);
    }
  }
  sqlite3_reset(pRead);
  for(i=0; rc==SQLITE_OK && i<n; i++){
    sqlite3_bind_int64(pDelete, 1, a[i].id);
    rc = sqlite3_step(pDelete);
    rc = rc==SQLITE_DONE ? SQLITE_OK : jobSqlError(pJob, rc);
    sqlite3_reset(pDelete);
  }
  if( rc==SQLITE_OK ) pJob->nChanged += n;

done:
  sqlite3_finalize(pUpdate);
  sqlite3_finalize(pRead);
  sqlite3_free(aiCol);
  sqlite3_free(azOrig);
  sqlite3_free(anOrig);
  return rc;
}

/* Undo every log entry of zTable (NULL: all) of the job's schema. */
static int undo_all(repair_job *pJob, const char *zTable){
  log_entry *a = 0;
  sqlite3_int64 n = 0, i, j;
  utf8ext_table *p = 0;
  sqlite3_stmt *pDelete = 0;
  int rc, bExists;

  rc = log_exists(pJob, &bExists);
  if( rc!=SQLITE_OK || !bExists ) return rc;
  rc = undo_read_log(pJob, zTable, &a, &n);
  if( rc==SQLITE_OK && n>0 ){
    rc = jobPrepare(pJob, sqlite3_mprintf(
        "DELETE FROM \"%w\"." UTF8EXT_LOG_TABLE " WHERE id=?1", pJob->zSchema),
        &pDelete);
  }
  for(i=0; rc==SQLITE_OK && i<n; i=j){
    /* The run a[i..j) of entries for one row, each column once. */
    for(j=i+1; j<n && a[j].id==a[j-1].id-1 && same_row(&a[i], &a[j]); j++){
      sqlite3_int64 k;
      for(k=i; k<j && sqlite3_stricmp(a[k].zCol, a[j].zCol)!=0; k++){}
      if( k<j ) break;
    }
    if( p==0 || strcmp(p->zName, a[i].zTbl)!=0 ){
      fp_close(pJob);
      utf8ext_table_free(p);
      p = 0;
      rc = utf8ext_table_load(pJob->db, pJob->zSchema, a[i].zTbl, -1, &p,
                              &pJob->zErr);
      if( rc==SQLITE_OK ) rc = utf8ext_table_load_key(pJob->db, p, &pJob->zErr);
      if( rc==SQLITE_OK ) rc = refuse_update_triggers(pJob, p);
      if( rc==SQLITE_OK ) rc = fp_open(pJob, p);
      if( rc!=SQLITE_OK ) break;
    }
    rc = undo_row(pJob, p, &a[i], (int)(j-i), pDelete);
  }
  fp_close(pJob);
  sqlite3_finalize(pDelete);
  utf8ext_table_free(p);
  free_entries(a, n);
  return rc;
}

/* ---- the SQL functions -------------------------------------------------------- */

/*
** Start the job's savepoint. The count of unresolved deferred foreign key
** violations is taken first, so a repair that adds one can be refused.
*/
static int job_begin(repair_job *pJob){
  int hi = 0, rc;
  sqlite3_db_status(pJob->db, SQLITE_DBSTATUS_DEFERRED_FKS, &pJob->nDeferred,
                    &hi, 0);
  pJob->bAutocommit = sqlite3_get_autocommit(pJob->db);
  rc = jobExec(pJob, "SAVEPOINT utf8ext_repair");
  pJob->bSavepoint = rc==SQLITE_OK;
  return rc;
}

/*
** End the job's savepoint: keep its work when rc is SQLITE_OK (and no
** deferred foreign key was left unresolved), else roll all of it back.
** Only a savepoint this job opened is touched: when SAVEPOINT itself
** failed, a ROLLBACK TO of that name would reach the user's own. When the
** savepoint began the transaction and its commit fails (SQLITE_BUSY), the
** transaction is rolled back, never left open.
*/
static int job_end(repair_job *pJob, int rc){
  sqlite3 *db = pJob->db;
  int now = 0, hi = 0;
  sqlite3_finalize(pJob->pLogInsert);
  pJob->pLogInsert = 0;
  if( !pJob->bSavepoint ) return rc;
  pJob->bSavepoint = 0;
  if( rc==SQLITE_OK ){
    sqlite3_db_status(db, SQLITE_DBSTATUS_DEFERRED_FKS, &now, &hi, 0);
    if( now>pJob->nDeferred ){
      rc = jobError(pJob, SQLITE_CONSTRAINT, "a deferred FOREIGN KEY "
          "constraint would fail");
    }
  }
  if( rc==SQLITE_OK ){
    rc = jobExec(pJob, "RELEASE utf8ext_repair");
    if( rc==SQLITE_OK ) return rc;
  }
  sqlite3_exec(db, "ROLLBACK TO utf8ext_repair", 0, 0, 0);
  sqlite3_exec(db, "RELEASE utf8ext_repair", 0, 0, 0);
  if( pJob->bAutocommit && !sqlite3_get_autocommit(db) ){
    sqlite3_exec(db, "ROLLBACK", 0, 0, 0);
  }
  return rc;
}

/*
** Report the job's outcome on ctx: the count, or the error with the
** function's name and "nothing was changed".
*/
static void job_result(sqlite3_context *ctx, repair_job *pJob, int rc){
  if( rc==SQLITE_OK ){
    sqlite3_result_int64(ctx, pJob->nChanged);
  }else if( rc==SQLITE_NOMEM ){
    sqlite3_result_error_nomem(ctx);
  }else{
    /* Names and SQLite's own messages may carry any bytes: escaped, the
    ** message is well-formed UTF-8 whatever they are. */
    const char *zWhy = pJob->zErr ? pJob->zErr : sqlite3_errstr(rc);
    sqlite3_str *s = sqlite3_str_new(0);
    char *zMsg;
    sqlite3_str_appendf(s, "%s: ", pJob->zFunc);
    utf8ext_append_escaped(s, (const unsigned char*)zWhy,
                           (sqlite3_int64)strlen(zWhy));
    sqlite3_str_appendall(s, "; nothing was changed");
    zMsg = sqlite3_str_finish(s);
    if( zMsg==0 ){
      sqlite3_result_error_nomem(ctx);
    }else{
      sqlite3_result_error(ctx, zMsg, -1);
      sqlite3_free(zMsg);
      if( rc!=SQLITE_ERROR ) sqlite3_result_error_code(ctx, rc);
    }
  }
  sqlite3_finalize(pJob->pLogInsert);
  sqlite3_free(pJob->zSchema);
  sqlite3_free(pJob->zErr);
  sqlite3_free(pJob->zAt);
}

/*
** The text of name argument v (TABLE or SCHEMA) into *pz, NULL for NULL.
** A name with a NUL byte is an error: no table or schema has one.
*/
static int name_arg(repair_job *pJob, sqlite3_value *v, const char *zArg,
                    const char **pz){
  *pz = 0;
  if( sqlite3_value_type(v)==SQLITE_NULL ) return SQLITE_OK;
  *pz = (const char*)sqlite3_value_text(v);
  if( *pz==0 ) return SQLITE_NOMEM;
  if( (int)strlen(*pz)!=sqlite3_value_bytes(v) ){
    return jobError(pJob, SQLITE_ERROR, "the %s argument contains a NUL byte",
                    zArg);
  }
  return SQLITE_OK;
}

/*
** utf8_repair(TABLE [, METHOD [, SCHEMA]]): see the top of this file.
*/
static void repairFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv){
  repair_job job;
  const char *zTable = 0, *zSchema = 0;
  sqlite3_stmt *pList = 0;
  int rc;

  memset(&job, 0, sizeof(job));
  job.db = sqlite3_context_db_handle(ctx);
  job.zFunc = "utf8_repair";
  job.bFix = 1;
  job.zMethod = "fix";
  rc = name_arg(&job, argv[0], "TABLE", &zTable);
  if( rc==SQLITE_OK && argc>=2 && sqlite3_value_type(argv[1])!=SQLITE_NULL ){
    static const char *const azEnc[] = { "cp1252", "latin1", "cesu8", "mutf8" };
    const char *z = (const char*)sqlite3_value_text(argv[1]);
    if( z==0 ){
      rc = SQLITE_NOMEM;
    }else if( (int)strlen(z)!=sqlite3_value_bytes(argv[1]) ){
      /* no method has one; the message could not show it either */
      rc = jobError(&job, SQLITE_ERROR, "the METHOD argument contains a NUL"
                    " byte");
    }else if( sqlite3_stricmp(z, "fix")==0 && (int)strlen(z)==3 ){
      job.bFix = 1;
    }else if( sqlite3_stricmp(z, "mojibake")==0 ){
      job.bFix = 0;
      job.bMoji = 1;
      job.zMethod = "mojibake";
    }else if( sqlite3_stricmp(z, "cp1252-whole")==0
           || sqlite3_stricmp(z, "latin1-whole")==0 ){
      /* a legacy value decoded whole, its accidental UTF-8 pairs too */
      job.bFix = 0;
      job.bWhole = 1;
      job.enc = (z[0]|0x20)=='c' ? UTF8_RECODE_CP1252 : UTF8_RECODE_LATIN1;
      job.zMethod = job.enc==UTF8_RECODE_CP1252 ? "cp1252-whole" : "latin1-whole";
    }else if( utf8ext_encoding_named(z, sqlite3_value_bytes(argv[1]), &job.enc) ){
      job.bFix = 0;
      job.zMethod = azEnc[job.enc];
    }else{
      sqlite3_str *s = sqlite3_str_new(0);
      utf8ext_append_escaped(s, (const unsigned char*)z,
                             sqlite3_value_bytes(argv[1]));
      z = sqlite3_str_finish(s);
      if( z==0 ) rc = SQLITE_NOMEM;
      else rc = jobError(&job, SQLITE_ERROR, "unknown METHOD '%s': use 'fix', 'mojibake', "
                         "'cp1252-whole', 'latin1-whole', "
                         UTF8EXT_ENCODING_NAMES, z);
      sqlite3_free((char*)z);
    }
  }
  if( rc==SQLITE_OK && argc>=3 ) rc = name_arg(&job, argv[2], "SCHEMA", &zSchema);
  if( rc==SQLITE_OK ){
    rc = utf8ext_resolve_schema(job.db, zTable, zSchema, &job.zSchema, &job.zErr);
  }
  if( rc!=SQLITE_OK ){
    job_result(ctx, &job, rc);
    return;
  }
  rc = job_begin(&job);
  if( rc==SQLITE_OK ){
    rc = utf8ext_list_tables(job.db, job.zSchema, zTable, &pList, &job.zErr);
  }
  if( rc==SQLITE_OK ){
    int nSeen = 0;
    while( (rc = sqlite3_step(pList))==SQLITE_ROW ){
      const char *zName = (const char*)sqlite3_column_text(pList, 0);
      const char *zType = (const char*)sqlite3_column_text(pList, 1);
      nSeen++;
      if( zName==0 || zType==0 ){ rc = SQLITE_NOMEM; break; }
      rc = repair_table(&job, zName, zType,
          sqlite3_column_type(pList, 2)==SQLITE_NULL ? -1 :
          sqlite3_column_int(pList, 2)!=0, zTable!=0);
      if( rc!=SQLITE_OK ) break;
    }
    if( rc==SQLITE_DONE ){
      rc = SQLITE_OK;
      if( zTable && nSeen==0 ){
        rc = jobError(&job, SQLITE_ERROR, "no such table: %s.%s",
                      job.zSchema, zTable);
      }
    }else if( rc==SQLITE_ROW || (rc!=SQLITE_OK && job.zErr==0) ){
      rc = jobSqlError(&job, rc);
    }
    sqlite3_finalize(pList);
  }
  rc = job_end(&job, rc);
  sqlite3_free(job.aMoji);
  job_result(ctx, &job, rc);
}

/*
** utf8_undo([TABLE [, SCHEMA]]): see the top of this file.
*/
static void undoFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv){
  repair_job job;
  const char *zTable = 0, *zSchema = 0;
  int rc = SQLITE_OK;

  memset(&job, 0, sizeof(job));
  job.db = sqlite3_context_db_handle(ctx);
  job.zFunc = "utf8_undo";
  if( argc>=1 ) rc = name_arg(&job, argv[0], "TABLE", &zTable);
  if( rc==SQLITE_OK && argc>=2 ) rc = name_arg(&job, argv[1], "SCHEMA", &zSchema);
  if( rc==SQLITE_OK ){
    rc = utf8ext_resolve_schema(job.db, zTable, zSchema, &job.zSchema, &job.zErr);
  }
  if( rc==SQLITE_OK ){
    rc = job_begin(&job);
    if( rc==SQLITE_OK ) rc = undo_all(&job, zTable);
    rc = job_end(&job, rc);
  }
  job_result(ctx, &job, rc);
}

int utf8ext_register_repair(sqlite3 *db){
  /* Writes users' tables: never from a view or trigger in a database file. */
  static const int flags = SQLITE_UTF8 | SQLITE_DIRECTONLY;
  int rc = SQLITE_OK, n;
  for(n=1; rc==SQLITE_OK && n<=3; n++){
    rc = sqlite3_create_function(db, "utf8_repair", n, flags, 0, repairFunc, 0, 0);
  }
  for(n=0; rc==SQLITE_OK && n<=2; n++){
    rc = sqlite3_create_function(db, "utf8_undo", n, flags, 0, undoFunc, 0, 0);
  }
  return rc;
}
