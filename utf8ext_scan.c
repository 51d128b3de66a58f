/*
** utf8ext_scan.c - the table scanner: which tables a call of utf8_audit,
** utf8_audit_summary or utf8_repair means, each table's columns and key,
** and the one SELECT that reads a table whole. It writes nothing.
**
** HOW IT WORKS
**
** The tables come from the schema's own sqlite_schema (on every SQLite
** version): views and virtual tables are told apart by their entries, and
** a shadow table is one named after a virtual table of the schema and
** "_" (SQLite names every shadow table so; the module, which could say
** more, may not be loaded in this connection). The columns and the key
** come from pragma_table_xinfo.
**
** A table is read by one statement over all of its columns (a table of
** nearly 2000 columns, more than one result row may hold, in passes),
**
**     SELECT "t"."rowid", "t"."k1", ..., "t"."c1", "t"."c2", ...
**       FROM "schema"."t" AS "t" NOT INDEXED
**
** in the table's own order (NOT INDEXED: never an index's order). Every
** identifier is quoted ("%w"), never pasted; values are bound. A table
** called  x"; DROP TABLE y; --  is read like any other. The table is
** aliased by its own name so the schema table, whose FROM name is
** sqlite_master, can be qualified too. Columns are qualified, because
** SQLite reads a lone "col" that names no column as the string 'col'.
**
** The rowid is read by whichever of rowid, _rowid_ and oid no column
** shadows; WITHOUT ROWID tables, and tables whose columns take all three
** names, have none to read, and are found by their primary key instead.
*/
#include "utf8ext_scan.h"

#include <string.h>

char *utf8ext_column_dup(sqlite3_stmt *pStmt, int iCol){
  const unsigned char *z = sqlite3_column_text(pStmt, iCol);
  return z ? sqlite3_mprintf("%s", z) : 0;
}

/*
** Set *pzErr to SQLite's message for the statement that just failed with
** rc, and return rc.
*/
static int scan_sql_error(sqlite3 *db, int rc, char **pzErr){
  if( rc!=SQLITE_NOMEM ){
    sqlite3_free(*pzErr);
    *pzErr = sqlite3_mprintf("%s", sqlite3_errmsg(db));
  }
  return rc;
}

/*
** Prepare zSql (from sqlite3_mprintf, freed here, NULL after an
** allocation failure) into *ppStmt.
*/
static int scan_prepare(sqlite3 *db, char *zSql, sqlite3_stmt **ppStmt,
                        char **pzErr){
  int rc;
  *ppStmt = 0;
  if( zSql==0 ) return SQLITE_NOMEM;
  rc = sqlite3_prepare_v2(db, zSql, -1, ppStmt, 0);
  sqlite3_free(zSql);
  if( rc!=SQLITE_OK ){
    sqlite3_finalize(*ppStmt);
    *ppStmt = 0;
    return scan_sql_error(db, rc, pzErr);
  }
  return SQLITE_OK;
}

/* True if zName names the schema table of any schema, by any of its names. */
static int is_schema_table(const char *zName){
  return sqlite3_stricmp(zName, "sqlite_master")==0
      || sqlite3_stricmp(zName, "sqlite_schema")==0
      || sqlite3_stricmp(zName, "sqlite_temp_master")==0
      || sqlite3_stricmp(zName, "sqlite_temp_schema")==0;
}

/*
** 1 if schema zSchema has a table or view zTable (by any name of the
** schema table too), 0 if not, or an SQLite error code (negated).
*/
static int schema_has_table(sqlite3 *db, const char *zSchema,
                            const char *zTable, char **pzErr){
  sqlite3_stmt *pStmt;
  int rc;
  if( is_schema_table(zTable) ){
    /* sqlite_temp_schema is temp's; sqlite_schema every other schema's */
    int bTemp = sqlite3_strnicmp(zTable, "sqlite_temp_", 12)==0;
    return bTemp==(sqlite3_stricmp(zSchema, "temp")==0);
  }
  rc = scan_prepare(db, sqlite3_mprintf(
      "SELECT 1 FROM \"%w\".sqlite_master WHERE type IN ('table','view')"
      " AND name=?1 COLLATE NOCASE", zSchema), &pStmt, pzErr);
  if( rc!=SQLITE_OK ) return -rc;
  sqlite3_bind_text(pStmt, 1, zTable, -1, SQLITE_STATIC);
  rc = sqlite3_step(pStmt);
  if( rc==SQLITE_ROW ){
    rc = 1;
  }else if( rc==SQLITE_DONE ){
    rc = 0;
  }else{
    rc = -scan_sql_error(db, rc, pzErr);
  }
  sqlite3_finalize(pStmt);
  return rc;
}

int utf8ext_resolve_schema(sqlite3 *db, const char *zTable,
                           const char *zSchemaArg, char **pzSchema,
                           char **pzErr){
  sqlite3_stmt *pStmt;
  int rc;
  *pzSchema = 0;
  if( zSchemaArg==0 && zTable==0 ){
    *pzSchema = sqlite3_mprintf("main");
    return *pzSchema ? SQLITE_OK : SQLITE_NOMEM;
  }
  if( zSchemaArg && sqlite3_stricmp(zSchemaArg, "temp")==0 ){
    /* temp always exists; pragma_database_list lists it only once used. */
    *pzSchema = sqlite3_mprintf("temp");
    return *pzSchema ? SQLITE_OK : SQLITE_NOMEM;
  }
  /* SQL's own order for an unqualified name: temp, main, attached. */
  rc = scan_prepare(db, sqlite3_mprintf(
      "SELECT name FROM (SELECT 'temp' AS name, -1 AS seq UNION ALL"
      " SELECT name, seq FROM pragma_database_list WHERE name<>'temp')"
      " WHERE ?1 IS NULL OR name=?1 COLLATE NOCASE ORDER BY seq"),
      &pStmt, pzErr);
  if( rc!=SQLITE_OK ) return rc;
  sqlite3_bind_text(pStmt, 1, zSchemaArg, -1, SQLITE_STATIC);
  while( (rc = sqlite3_step(pStmt))==SQLITE_ROW ){
    const char *zName = (const char*)sqlite3_column_text(pStmt, 0);
    int has;
    if( zName==0 ){ rc = SQLITE_NOMEM; break; }
    if( zSchemaArg==0 ){
      has = schema_has_table(db, zName, zTable, pzErr);
      if( has<0 ){ rc = -has; break; }
      if( has==0 ) continue;
    }
    *pzSchema = sqlite3_mprintf("%s", zName);
    rc = *pzSchema ? SQLITE_DONE : SQLITE_NOMEM;
    break;
  }
  if( rc==SQLITE_DONE ){
    rc = SQLITE_OK;
    if( *pzSchema==0 ){
      const char *zName = zSchemaArg ? zSchemaArg : zTable;
      sqlite3_str *s = sqlite3_str_new(0);
      sqlite3_str_appendall(s, zSchemaArg ? "no such schema: " : "no such table: ");
      utf8ext_append_escaped(s, (const unsigned char*)zName,
                             (sqlite3_int64)strlen(zName));
      *pzErr = sqlite3_str_finish(s);
      rc = *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
    }
  }else if( rc!=SQLITE_NOMEM && rc!=SQLITE_OK ){
    if( *pzErr==0 ) scan_sql_error(db, rc, pzErr);
  }
  sqlite3_finalize(pStmt);
  return rc;
}

int utf8ext_list_tables(sqlite3 *db, const char *zSchema, const char *zTable,
                        sqlite3_stmt **ppList, char **pzErr){
  int rc;
  if( zTable && is_schema_table(zTable) ){
    /* The schema table is not an entry of itself. */
    rc = scan_prepare(db, sqlite3_mprintf("SELECT %Q, 'table', 0",
        sqlite3_stricmp(zSchema, "temp")==0 ? "sqlite_temp_schema"
                                            : "sqlite_schema"),
        ppList, pzErr);
    return rc;
  }
  rc = scan_prepare(db, sqlite3_mprintf(
      "SELECT name, CASE WHEN type='view' THEN 'view'"
      " WHEN sql LIKE 'CREATE VIRTUAL TABLE%%' THEN 'virtual'"
      " WHEN EXISTS (SELECT 1 FROM \"%w\".sqlite_master AS v"
      "   WHERE v.type='table' AND v.sql LIKE 'CREATE VIRTUAL TABLE%%'"
      "   AND length(m.name)>length(v.name)+1"
      "   AND substr(m.name, 1, length(v.name)+1)=v.name||'_' COLLATE NOCASE)"
      " THEN 'shadow' ELSE 'table' END AS kind, NULL"
      " FROM \"%w\".sqlite_master AS m"
      " WHERE type IN ('table','view') AND CASE WHEN ?1 IS NULL"
      " THEN kind='table' AND name NOT LIKE 'sqlite\\_%%' ESCAPE '\\'"
      "   AND name<>'" UTF8EXT_LOG_TABLE "' COLLATE NOCASE"
      " ELSE name=?1 COLLATE NOCASE END"
      " ORDER BY name", zSchema, zSchema), ppList, pzErr);
  if( rc==SQLITE_OK ){
    sqlite3_bind_text(*ppList, 1, zTable, -1, SQLITE_STATIC);
  }
  return rc;
}

void utf8ext_table_free(utf8ext_table *p){
  int i;
  if( p==0 ) return;
  for(i=0; i<p->nCol; i++) sqlite3_free(p->azCol[i]);
  sqlite3_free(p->azCol);
  sqlite3_free(p->aGenerated);
  sqlite3_free(p->aNumeric);
  sqlite3_free(p->aiPk);
  for(i=0; p->azPkColl && i<p->nPkPart; i++) sqlite3_free(p->azPkColl[i]);
  sqlite3_free(p->azPkColl);
  sqlite3_free(p->aiPkPart);
  sqlite3_free(p->zSchema);
  sqlite3_free(p->zName);
  sqlite3_free(p->zFrom);
  sqlite3_free(p);
}

/*
** Whether table p has a rowid readable as zAlias (a WITHOUT ROWID table has
** none), for a caller that does not know which kind p is: *pbHas is set
** and SQLITE_OK returned, or SQLITE_NOMEM, which must not pass for "no".
*/
static int table_has_rowid(sqlite3 *db, const utf8ext_table *p,
                           const char *zAlias, int *pbHas){
  sqlite3_stmt *pStmt = 0;
  char *zSql = sqlite3_mprintf("SELECT \"%w\".\"%w\" FROM \"%w\".\"%w\" AS \"%w\"",
                               p->zFrom, zAlias, p->zSchema, p->zFrom, p->zFrom);
  int rc;
  if( zSql==0 ) return SQLITE_NOMEM;
  rc = sqlite3_prepare_v2(db, zSql, -1, &pStmt, 0);
  sqlite3_free(zSql);
  sqlite3_finalize(pStmt);
  if( rc==SQLITE_NOMEM ) return rc;
  *pbHas = rc==SQLITE_OK;
  return SQLITE_OK;
}

/*
** Whether table p, whose columns take every name of the rowid (so no name
** can be tried), has a rowid: its PRIMARY KEY's index (origin 'pk') ends
** with the rowid (cid -1) in a rowid table and never in a WITHOUT ROWID
** one, whose key index holds the table's other columns instead. A table
** with a key but no such index is a rowid table (INTEGER PRIMARY KEY);
** one without a key is never WITHOUT ROWID. SQLITE_OK with *pbHas set, or
** the error.
*/
static int table_has_rowid_by_key(sqlite3 *db, const utf8ext_table *p,
                                  int *pbHas, char **pzErr){
  sqlite3_stmt *pStmt = 0;
  int rc = scan_prepare(db, sqlite3_mprintf(
      "SELECT count(*), sum(x.cid=-1) FROM pragma_index_list(?1, ?2) AS l,"
      " pragma_index_xinfo(l.name, ?2) AS x WHERE l.origin='pk'"), &pStmt,
      pzErr);
  if( rc!=SQLITE_OK ) return rc;
  sqlite3_bind_text(pStmt, 1, p->zFrom, -1, SQLITE_STATIC);
  sqlite3_bind_text(pStmt, 2, p->zSchema, -1, SQLITE_STATIC);
  rc = sqlite3_step(pStmt);
  if( rc==SQLITE_ROW ){
    *pbHas = p->nPk==0 || sqlite3_column_int(pStmt, 0)==0
          || sqlite3_column_int(pStmt, 1)>0;
    rc = SQLITE_OK;
  }else if( rc!=SQLITE_NOMEM ){
    rc = scan_sql_error(db, rc, pzErr);
  }
  sqlite3_finalize(pStmt);
  return rc;
}

/* Does zType hold zWord (upper case), in any case? */
static int type_has(const char *zType, const char *zWord){
  size_t n = strlen(zWord);
  for(; *zType; zType++){
    if( sqlite3_strnicmp(zType, zWord, (int)n)==0 ) return 1;
  }
  return 0;
}

/* Does a column declared zType have INTEGER, REAL or NUMERIC affinity?
** SQLite's rule: INT anywhere, else CHAR CLOB TEXT (text), else BLOB or no
** type (none), else REAL FLOA DOUB (real), else numeric. */
static int numeric_affinity(const char *zType){
  if( zType==0 || zType[0]==0 ) return 0;
  if( type_has(zType, "INT") ) return 1;
  if( type_has(zType, "CHAR") || type_has(zType, "CLOB")
   || type_has(zType, "TEXT") || type_has(zType, "BLOB") ) return 0;
  return 1;                           /* REAL FLOA DOUB, or NUMERIC */
}

/* Could text z[0..n) be stored as a number under numeric affinity? Only
** signs, digits, a point, an exponent and spaces (more than SQLite takes
** for a number: a value read so is left alone, which is safe). */
static int may_be_number(const unsigned char *z, sqlite3_int64 n){
  sqlite3_int64 i;
  int digits = 0;
  for(i=0; i<n; i++){
    unsigned char c = z[i];
    if( c>='0' && c<='9' ){ digits++; continue; }
    if( c=='+' || c=='-' || c=='.' || c=='e' || c=='E' || c==' '
     || (c>='\t' && c<='\r') ) continue;
    return 0;
  }
  return digits>0;
}

int utf8ext_moji_repair_of(const utf8ext_table *p, int iCol,
                           const unsigned char *z, sqlite3_int64 n,
                           unsigned char **paBuf, sqlite3_int64 *pnBuf,
                           sqlite3_int64 *pnOut){
  utf8_moji_charset chain[UTF8_MOJI_MAX_DEPTH];
  int r = utf8ext_unmojibake_buf(z, n, paBuf, pnBuf, pnOut, chain);
  if( r>0 && chain[0]>UTF8_MOJI_COUNT && chain[0]<=UTF8_MOJI_UTF32BE && p->aNumeric[iCol]
   && may_be_number(*paBuf, *pnOut) ) return 0;
  return r;
}

/*
** The parts of a WITHOUT ROWID table's key as its index (the table itself)
** compares them: each part's column and collation. A row is found by its
** key under those, which the index serves and under which the key is
** unique. The column's own collation may differ ("k TEXT COLLATE NOCASE,
** PRIMARY KEY(k COLLATE BINARY)": k=? would match both 'A' and 'a'), and a
** column may be in the key twice ("PRIMARY KEY(a COLLATE NOCASE, a)").
*/
int utf8ext_table_load_key(sqlite3 *db, utf8ext_table *p, char **pzErr){
  sqlite3_stmt *pStmt = 0;
  int rc, nAlloc = 0;
  if( !p->bWithoutRowid || p->nPk==0 || p->azPkColl ) return SQLITE_OK;
  rc = scan_prepare(db, sqlite3_mprintf(
      "SELECT cid, coll FROM pragma_index_xinfo((SELECT name FROM"
      " pragma_index_list(?1, ?2) WHERE origin='pk'), ?2)"
      " WHERE key ORDER BY seqno"), &pStmt, pzErr);
  if( rc!=SQLITE_OK ) return rc;
  sqlite3_bind_text(pStmt, 1, p->zFrom, -1, SQLITE_STATIC);
  sqlite3_bind_text(pStmt, 2, p->zSchema, -1, SQLITE_STATIC);
  while( (rc = sqlite3_step(pStmt))==SQLITE_ROW ){
    int cid = sqlite3_column_int(pStmt, 0), k;
    if( p->nPkPart==nAlloc ){
      int nNew = nAlloc ? 2*nAlloc : 8;
      char **azNew = sqlite3_realloc64(p->azPkColl, nNew*sizeof(char*));
      int *aiNew = azNew ? sqlite3_realloc64(p->aiPkPart, nNew*sizeof(int)) : 0;
      if( azNew ) p->azPkColl = azNew;
      if( aiNew ) p->aiPkPart = aiNew;
      if( aiNew==0 ){ rc = SQLITE_NOMEM; break; }
      nAlloc = nNew;
    }
    for(k=0; k<p->nPk && p->aiPk[k]!=cid; k++){}
    if( k==p->nPk ){ rc = SQLITE_CORRUPT; break; }
    p->aiPkPart[p->nPkPart] = k;
    p->azPkColl[p->nPkPart] = utf8ext_column_dup(pStmt, 1);
    if( p->azPkColl[p->nPkPart]==0 ){ rc = SQLITE_NOMEM; break; }
    p->nPkPart++;
  }
  if( rc==SQLITE_DONE ) rc = p->nPkPart>=p->nPk ? SQLITE_OK : SQLITE_CORRUPT;
  else if( rc!=SQLITE_NOMEM && rc!=SQLITE_CORRUPT ) rc = scan_sql_error(db, rc, pzErr);
  if( rc==SQLITE_CORRUPT ){
    *pzErr = sqlite3_mprintf("the key of %s.%s: its index does not match"
                             " its columns", p->zSchema, p->zName);
    rc = *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  sqlite3_finalize(pStmt);
  return rc;
}

int utf8ext_table_load(sqlite3 *db, const char *zSchema, const char *zName,
                       int bWithoutRowid, utf8ext_table **pp, char **pzErr){
  static const char *const azAlias[] = { "rowid", "_rowid_", "oid" };
  utf8ext_table *p;
  sqlite3_stmt *pStmt = 0;
  int *aiKeyOf = 0;           /* aiKeyOf[i]: position in the key of column i */
  int nAlloc = 0;
  int rc, i, k;

  *pp = 0;
  p = sqlite3_malloc(sizeof(*p));
  if( p==0 ) return SQLITE_NOMEM;
  memset(p, 0, sizeof(*p));
  p->zSchema = sqlite3_mprintf("%s", zSchema);
  p->zName = sqlite3_mprintf("%s", zName);
  p->zFrom = sqlite3_mprintf("%s", is_schema_table(zName) ? "sqlite_master"
                                                          : zName);
  if( p->zSchema==0 || p->zName==0 || p->zFrom==0 ){
    utf8ext_table_free(p);
    return SQLITE_NOMEM;
  }
  rc = utf8ext_text_encoding(db, &p->eTextEnc);
  if( rc==SQLITE_OK ){
    rc = scan_prepare(db, sqlite3_mprintf(
        "SELECT name, pk, hidden, type FROM pragma_table_xinfo(?1, ?2)"), &pStmt,
        pzErr);
  }
  if( rc==SQLITE_OK ){
    sqlite3_bind_text(pStmt, 1, p->zFrom, -1, SQLITE_STATIC);
    sqlite3_bind_text(pStmt, 2, p->zSchema, -1, SQLITE_STATIC);
    while( (rc = sqlite3_step(pStmt))==SQLITE_ROW ){
      int hidden;
      if( p->nCol==nAlloc ){
        int nNew = nAlloc ? 2*nAlloc : 16;
        char **azNew = sqlite3_realloc64(p->azCol, nNew*sizeof(char*));
        int *aiNew = azNew ? sqlite3_realloc64(aiKeyOf, nNew*sizeof(int)) : 0;
        unsigned char *aNew = aiNew ? sqlite3_realloc64(p->aGenerated, nNew) : 0;
        unsigned char *aNum = aNew ? sqlite3_realloc64(p->aNumeric, nNew) : 0;
        if( azNew ) p->azCol = azNew;
        if( aiNew ) aiKeyOf = aiNew;
        if( aNew ) p->aGenerated = aNew;
        if( aNum ) p->aNumeric = aNum;
        if( aNum==0 ){ rc = SQLITE_NOMEM; break; }
        nAlloc = nNew;
      }
      p->azCol[p->nCol] = utf8ext_column_dup(pStmt, 0);
      if( p->azCol[p->nCol]==0 ){ rc = SQLITE_NOMEM; break; }
      aiKeyOf[p->nCol] = sqlite3_column_int(pStmt, 1);
      if( aiKeyOf[p->nCol]>0 ) p->nPk++;
      hidden = sqlite3_column_int(pStmt, 2);
      p->aGenerated[p->nCol] = hidden==2 || hidden==3;
      p->aNumeric[p->nCol] = numeric_affinity((const char*)sqlite3_column_text(pStmt, 3));
      p->nCol++;
    }
    if( rc==SQLITE_DONE ){
      rc = SQLITE_OK;
      if( p->nCol==0 ){
        *pzErr = sqlite3_mprintf("no such table: %s.%s", zSchema, zName);
        rc = *pzErr ? SQLITE_ERROR : SQLITE_NOMEM;
      }
    }else if( rc!=SQLITE_NOMEM ){
      rc = scan_sql_error(db, rc, pzErr);
    }
    sqlite3_finalize(pStmt);
  }

  /* The key's columns in key order. */
  if( rc==SQLITE_OK && p->nPk>0 ){
    p->aiPk = sqlite3_malloc64(p->nPk*sizeof(int));
    if( p->aiPk==0 ) rc = SQLITE_NOMEM;
    for(k=0; rc==SQLITE_OK && k<p->nPk; k++){
      for(i=0; i<p->nCol && aiKeyOf[i]!=k+1; i++){}
      p->aiPk[k] = i<p->nCol ? i : 0;
    }
  }

  /* The first name for the rowid that no column shadows. */
  for(k=0; rc==SQLITE_OK && p->zRowid==0 && k<3; k++){
    p->zRowid = azAlias[k];
    for(i=0; i<p->nCol; i++){
      if( sqlite3_stricmp(p->azCol[i], p->zRowid)==0 ){ p->zRowid = 0; break; }
    }
  }
  if( rc==SQLITE_OK ){
    if( bWithoutRowid<0 ){
      int bHas = 1;
      if( p->zRowid ){
        rc = table_has_rowid(db, p, p->zRowid, &bHas);
      }else if( p->nPk>0 ){
        /* every name is a column's: "rowid" would find the column */
        rc = table_has_rowid_by_key(db, p, &bHas, pzErr);
      }
      bWithoutRowid = !bHas;
    }
    p->bWithoutRowid = bWithoutRowid;
    if( bWithoutRowid ) p->zRowid = 0;
  }
  sqlite3_free(aiKeyOf);
  if( rc!=SQLITE_OK ){
    utf8ext_table_free(p);
    return rc;
  }
  *pp = p;
  return SQLITE_OK;
}

void utf8ext_append_column(sqlite3_str *s, const utf8ext_table *p, int i){
  sqlite3_str_appendf(s, "\"%w\".\"%w\"", p->zFrom, p->azCol[i]);
}

int utf8ext_scan_width(sqlite3 *db, const utf8ext_table *p){
  int n = sqlite3_limit(db, SQLITE_LIMIT_COLUMN, -1) - 1 - p->nPk;
  if( n<1 ) n = 1;
  return n<p->nCol ? n : p->nCol;
}

void utf8ext_append_select_head(sqlite3_str *s, const utf8ext_table *p){
  int i;
  if( p->zRowid ){
    sqlite3_str_appendf(s, "SELECT \"%w\".\"%w\"", p->zFrom, p->zRowid);
  }else{
    sqlite3_str_appendall(s, "SELECT NULL");
  }
  for(i=0; i<p->nPk; i++){
    sqlite3_str_appendall(s, ", ");
    utf8ext_append_column(s, p, p->aiPk[i]);
  }
}

char *utf8ext_scan_sql(const utf8ext_table *p, int iFirst, int nRead){
  sqlite3_str *s = sqlite3_str_new(0);
  int i;
  utf8ext_append_select_head(s, p);
  for(i=iFirst; i<iFirst+nRead && i<p->nCol; i++){
    sqlite3_str_appendall(s, ", ");
    utf8ext_append_column(s, p, i);
  }
  sqlite3_str_appendf(s, " FROM \"%w\".\"%w\" AS \"%w\" NOT INDEXED",
                      p->zSchema, p->zFrom, p->zFrom);
  if( sqlite3_str_errcode(s)!=SQLITE_OK ){
    sqlite3_free(sqlite3_str_finish(s));
    return 0;
  }
  return sqlite3_str_finish(s);
}

int utf8ext_append_locator(sqlite3_str *s, const utf8ext_table *p, int iParam){
  int k;
  if( p->zRowid ){
    sqlite3_str_appendf(s, "\"%w\".\"%w\"=?%d", p->zFrom, p->zRowid, iParam);
    return 1;
  }
  if( p->azPkColl ){
    /* each part of the key's index, by its collation: ?N is key part k */
    for(k=0; k<p->nPkPart; k++){
      if( k>0 ) sqlite3_str_appendall(s, " AND ");
      utf8ext_append_column(s, p, p->aiPk[p->aiPkPart[k]]);
      sqlite3_str_appendf(s, "=?%d COLLATE \"%w\"", iParam+p->aiPkPart[k],
                          p->azPkColl[k]);
    }
    return p->nPk;
  }
  for(k=0; k<p->nPk; k++){
    if( k>0 ) sqlite3_str_appendall(s, " AND ");
    utf8ext_append_column(s, p, p->aiPk[k]);
    sqlite3_str_appendf(s, "=?%d", iParam+k);
  }
  return p->nPk;
}

char *utf8ext_scan_pk_literal(const utf8ext_table *p, sqlite3_stmt *pRow){
  sqlite3_str *s = sqlite3_str_new(0);
  int nKey = p->nPk ? p->nPk : 1;
  int iFirst = p->nPk ? UTF8EXT_SCAN_KEY : UTF8EXT_SCAN_ROWID;
  int i;
  if( nKey>1 ) sqlite3_str_appendall(s, "(");
  for(i=0; i<nKey; i++){
    if( i>0 ) sqlite3_str_appendall(s, ", ");
    utf8ext_append_literal(s, sqlite3_column_value(pRow, iFirst+i),
                           p->eTextEnc, sqlite3_db_handle(pRow));
  }
  if( nKey>1 ) sqlite3_str_appendall(s, ")");
  if( sqlite3_str_errcode(s)!=SQLITE_OK ){
    sqlite3_free(sqlite3_str_finish(s));
    return 0;
  }
  return sqlite3_str_finish(s);
}
