/*
** utf8ext_audit.c - the table-valued function utf8_audit(TABLE [, SCHEMA]):
** one row for every stored TEXT value that is not well-formed UTF-8, in
** every column of TABLE, or of every ordinary table of SCHEMA when TABLE
** is NULL. SCHEMA is "main" when omitted or NULL; attached schemas and
** "temp" work too.
**
**     SELECT tbl, col, pk, offset, error, hex(bytes), errors, context
**       FROM utf8_audit('people');
**
**     people|name|17|2|missing continuation|EB|2|Zo� Salda�a
**
**     SELECT * FROM utf8_audit(NULL, 'aux');     -- every table of aux
**     UPDATE people SET name = utf8_fix(name)     -- repair what it found
**      WHERE rowid IN (SELECT rowid FROM utf8_audit('people'));
**
** The columns:
**
**     tbl      the table's name as the schema stores it
**     col      the column's name
**     rowid    the row's rowid; NULL for a WITHOUT ROWID table
**     pk       the row's declared PRIMARY KEY as an SQL literal, usable in
**              a WHERE clause: 'k', 42, X'C080', CAST(X'C080' AS TEXT) for
**              text that is itself not well-formed, a row value ('k', 2) for
**              a composite key; the rowid when the table declares no key
**     offset   0-based byte offset of the value's first ill-formed unit
**     error    that unit's reason ("overlong", "truncated", ...)
**     bytes    that unit's bytes (a BLOB)
**     errors   how many ill-formed units the value has
**     context  up to 12 characters either side of the first error, with
**              the error: repaired and with control characters made
**              visible (see core/context.h)
**
** The arguments are the hidden columns "table" and schema; "table" must be
** quoted where it is named: SELECT * FROM utf8_audit WHERE "table"='t'.
**
** Rows come by table (in name order when TABLE is NULL), then by column in
** declared order, then in the table's scan order (rowid or primary key).
** BLOBs, numbers and NULLs are not audited: only values of type 'text'.
** Generated columns are audited like any other column.
**
** Table names match case-insensitively. Naming a view, a virtual table, or
** a table or schema that does not exist is an error; so is calling it with
** no argument at all. With TABLE NULL, views, virtual tables, the shadow
** tables of virtual tables and SQLite's own sqlite_% tables are skipped.
**
** Because it reads any table of any attached schema, utf8_audit is
** SQLITE_VTAB_DIRECTONLY: SQL a user types may call it, a view or trigger
** stored in a database file may not.
**
** HOW IT WORKS
**
** utf8_audit exists only as a function (an eponymous virtual table with no
** xCreate). xFilter resolves SCHEMA and prepares the list of tables
** (pragma_table_list, or sqlite_schema before SQLite 3.37). For each table
** the cursor reads its columns and declared key (pragma_table_xinfo), and
** for each column it runs one query of its own:
**
**     SELECT "tbl"."col", "tbl".rowid, "tbl"."pk1", "tbl"."pk2"
**       FROM "schema"."tbl" AS "tbl" NOT INDEXED
**      WHERE NOT utf8_valid("tbl"."col") AND typeof("tbl"."col")='text'
**
** so the scan runs inside SQLite's VDBE at the speed of
** SELECT count(*) FROM tbl WHERE NOT utf8_valid(col), and only the rare
** ill-formed value comes back to C, where utf8_scan_errors() and
** utf8_context() describe it. Nothing is buffered: memory stays flat
** however large the table. NOT INDEXED keeps the scan in the table's own
** order even when an index on "col" would cover the query.
**
** Every identifier is written into that SQL quoted ("%w"), never pasted;
** values are bound. A table called  x"; DROP TABLE y; --  is audited like
** any other. The table is aliased by its own name (FROM "schema"."tbl" AS
** "tbl": SQLite's schema table, listed as sqlite_schema, is otherwise not
** known by that name to a column qualifier, and utf8_audit('sqlite_master')
** failed with "no such column: sqlite_schema.type"). Columns are qualified
** ("tbl"."col"): SQLite reads a lone "col"
** that names no column as the string 'col', so a column dropped since the
** audit began would be audited as a constant instead of failing.
**
** The rowid is read by whichever of rowid, _rowid_ and oid no column
** shadows; when all three are column names it is out of reach and the
** rowid column (and a key-less table's pk) is NULL.
**
** A table altered or dropped while a cursor walks it is no crash: the next
** query fails and SQLite's message comes back as "utf8_audit: ...".
**
** The virtual table's schema:
**
**     CREATE TABLE x(tbl, col, rowid, pk, "offset", error, bytes, errors,
**                    context, "table" HIDDEN, schema HIDDEN)
*/
#include "utf8ext_glue.h"
#include "context.h"

#include <float.h>
#include <stdarg.h>
#include <string.h>

/* Column numbers of the virtual table. */
#define AUDIT_COLUMN_TBL      0
#define AUDIT_COLUMN_COL      1
#define AUDIT_COLUMN_ROWID    2
#define AUDIT_COLUMN_PK       3
#define AUDIT_COLUMN_OFFSET   4
#define AUDIT_COLUMN_ERROR    5
#define AUDIT_COLUMN_BYTES    6
#define AUDIT_COLUMN_ERRORS   7
#define AUDIT_COLUMN_CONTEXT  8
#define AUDIT_COLUMN_TABLE    9   /* hidden: the TABLE argument */
#define AUDIT_COLUMN_SCHEMA  10   /* hidden: the SCHEMA argument */

/* Characters of context shown either side of the first error. */
#define AUDIT_CONTEXT_CHARS  12

/* Columns of the scan query before the key columns (see auditScanColumn). */
#define AUDIT_SCAN_VALUE      0   /* the audited value */
#define AUDIT_SCAN_ROWID      1   /* the rowid, or NULL */
#define AUDIT_SCAN_PK         2   /* the first declared key column */

typedef struct audit_vtab audit_vtab;
struct audit_vtab {
  sqlite3_vtab base;            /* Base class - must be first */
  sqlite3 *db;                  /* The connection the audit queries run on */
};

typedef struct audit_cursor audit_cursor;
struct audit_cursor {
  sqlite3_vtab_cursor base;     /* Base class - must be first */
  sqlite3 *db;                  /* The connection */
  char *zTableArg;              /* TABLE argument; NULL for every table */
  char *zSchema;                /* The schema's name as SQLite spells it */
  sqlite3_stmt *pTables;        /* Lists the tables to audit */
  int nTables;                  /* Tables pTables has given so far */
  char *zTab;                   /* Current table, as stored */
  char **azCol;                 /* Its columns, in declared order */
  int nCol;                     /* Entries in azCol */
  int iCol;                     /* Column being scanned */
  char *zKeys;                  /* ", rowid-or-NULL, key columns" for SQL */
  int nPk;                      /* Declared key columns (0: the rowid is) */
  int bRowid;                   /* True if the rowid can be read */
  sqlite3_stmt *pScan;          /* Scans column iCol of zTab */
  const unsigned char *zVal;    /* The current ill-formed value ... */
  sqlite3_int64 nVal;           /* ... and its length in bytes */
  utf8_errors err;              /* Its ill-formed units */
  sqlite3_int64 iRowid;         /* Number of the current row, from 1 */
  int bEof;                     /* True when no rows are left */
  int eTextEnc;                 /* SQLITE_UTF8, SQLITE_UTF16LE or _UTF16BE */
};

/*
** xConnect: declare the schema. utf8_audit runs queries of its own over
** any table of any attached schema, so it is SQLITE_VTAB_DIRECTONLY: a view
** or trigger stored in a database file cannot call it. It is deliberately
** not SQLITE_VTAB_INNOCUOUS.
*/
static int auditConnect(sqlite3 *db, void *pAux, int argc,
                        const char *const *argv, sqlite3_vtab **ppVtab,
                        char **pzErr){
  audit_vtab *pNew;
  int rc;
  (void)pAux; (void)argc; (void)argv; (void)pzErr;

  rc = sqlite3_declare_vtab(db,
      "CREATE TABLE x(tbl, col, rowid, pk, \"offset\", error, bytes, errors,"
      " context, \"table\" HIDDEN, schema HIDDEN)");
  if( rc!=SQLITE_OK ) return rc;
  pNew = sqlite3_malloc(sizeof(*pNew));
  if( pNew==0 ) return SQLITE_NOMEM;
  memset(pNew, 0, sizeof(*pNew));
  pNew->db = db;
#ifdef SQLITE_VTAB_DIRECTONLY
  sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
#endif
  *ppVtab = &pNew->base;
  return SQLITE_OK;
}

/*
** xDisconnect: free the virtual table.
*/
static int auditDisconnect(sqlite3_vtab *pVtab){
  sqlite3_free(pVtab);
  return SQLITE_OK;
}

/*
** xOpen: a new cursor, at EOF until xFilter runs.
*/
static int auditOpen(sqlite3_vtab *pVtab, sqlite3_vtab_cursor **ppCursor){
  audit_cursor *pCur = sqlite3_malloc(sizeof(*pCur));
  if( pCur==0 ) return SQLITE_NOMEM;
  memset(pCur, 0, sizeof(*pCur));
  pCur->db = ((audit_vtab*)pVtab)->db;
  pCur->bEof = 1;
  *ppCursor = &pCur->base;
  return SQLITE_OK;
}

/*
** Forget the current table: its columns, its key and its scan.
*/
static void auditResetTable(audit_cursor *pCur){
  int i;
  sqlite3_finalize(pCur->pScan);
  pCur->pScan = 0;
  for(i=0; i<pCur->nCol; i++) sqlite3_free(pCur->azCol[i]);
  sqlite3_free(pCur->azCol);
  pCur->azCol = 0;
  pCur->nCol = 0;
  pCur->iCol = 0;
  sqlite3_free(pCur->zTab);
  pCur->zTab = 0;
  sqlite3_free(pCur->zKeys);
  pCur->zKeys = 0;
  pCur->nPk = 0;
  pCur->bRowid = 0;
}

/*
** Finalize every statement and free everything xFilter set up, leaving
** the cursor at EOF.
*/
static void auditReset(audit_cursor *pCur){
  auditResetTable(pCur);
  sqlite3_finalize(pCur->pTables);
  pCur->pTables = 0;
  pCur->nTables = 0;
  sqlite3_free(pCur->zTableArg);
  pCur->zTableArg = 0;
  sqlite3_free(pCur->zSchema);
  pCur->zSchema = 0;
  pCur->iRowid = 0;
  pCur->bEof = 1;
}

/*
** xClose.
*/
static int auditClose(sqlite3_vtab_cursor *cur){
  auditReset((audit_cursor*)cur);
  sqlite3_free(cur);
  return SQLITE_OK;
}

/*
** Set the virtual table's error message to "utf8_audit: " and the
** formatted text, and return rc. An allocation failure, here or before,
** returns SQLITE_NOMEM with no message.
*/
static int auditError(audit_cursor *pCur, int rc, const char *zFormat, ...){
  sqlite3_vtab *pVtab = pCur->base.pVtab;
  char *zMsg;
  va_list ap;
  if( rc==SQLITE_NOMEM ) return SQLITE_NOMEM;
  va_start(ap, zFormat);
  zMsg = sqlite3_vmprintf(zFormat, ap);
  va_end(ap);
  if( zMsg==0 ) return SQLITE_NOMEM;
  sqlite3_free(pVtab->zErrMsg);
  pVtab->zErrMsg = sqlite3_mprintf("utf8_audit: %s", zMsg);
  sqlite3_free(zMsg);
  return pVtab->zErrMsg ? rc : SQLITE_NOMEM;
}

/*
** Pass on the error rc that an audit query of ours just got, with the
** connection's message.
*/
static int auditSqlError(audit_cursor *pCur, int rc){
  return auditError(pCur, rc, "%s", sqlite3_errmsg(pCur->db));
}

/*
** Prepare zSql (which may be NULL after an allocation failure, and is
** freed here) into *ppStmt.
*/
static int auditPrepare(audit_cursor *pCur, char *zSql, sqlite3_stmt **ppStmt){
  int rc;
  *ppStmt = 0;
  if( zSql==0 ) return SQLITE_NOMEM;
  rc = sqlite3_prepare_v2(pCur->db, zSql, -1, ppStmt, 0);
  sqlite3_free(zSql);
  if( rc!=SQLITE_OK ){
    rc = auditSqlError(pCur, rc);
    sqlite3_finalize(*ppStmt);
    *ppStmt = 0;
  }
  return rc;
}

/*
** A copy of column iCol of pStmt's row, to be freed with sqlite3_free();
** NULL when out of memory (the columns read with it are never NULL).
*/
static char *auditColumnDup(sqlite3_stmt *pStmt, int iCol){
  const unsigned char *z = sqlite3_column_text(pStmt, iCol);
  return z ? sqlite3_mprintf("%s", z) : 0;
}

/*
** Set pCur->zSchema to the schema zArg names, spelt as SQLite spells it
** (names match case-insensitively), or "main" when zArg is NULL. A schema
** that does not exist is an error. "temp" always exists, also before
** anything has been put in it (pragma_database_list lists it only then).
*/
static int auditSchema(audit_cursor *pCur, const char *zArg){
  sqlite3_stmt *pStmt;
  int rc;

  if( zArg==0 || sqlite3_stricmp(zArg, "temp")==0 ){
    pCur->zSchema = sqlite3_mprintf("%s", zArg ? "temp" : "main");
    return pCur->zSchema ? SQLITE_OK : SQLITE_NOMEM;
  }
  rc = auditPrepare(pCur, sqlite3_mprintf(
      "SELECT name FROM pragma_database_list WHERE name=?1 COLLATE NOCASE"),
      &pStmt);
  if( rc!=SQLITE_OK ) return rc;
  sqlite3_bind_text(pStmt, 1, zArg, -1, SQLITE_STATIC);
  rc = sqlite3_step(pStmt);
  if( rc==SQLITE_ROW ){
    pCur->zSchema = auditColumnDup(pStmt, 0);
    rc = pCur->zSchema ? SQLITE_OK : SQLITE_NOMEM;
  }else if( rc==SQLITE_DONE ){
    rc = auditError(pCur, SQLITE_ERROR, "no such schema: %s", zArg);
  }else{
    rc = auditSqlError(pCur, rc);
  }
  sqlite3_finalize(pStmt);
  return rc;
}

/*
** Prepare pCur->pTables, which lists (name, type, wr) for the tables to
** audit: type is 'table', 'view', 'virtual' or 'shadow', and wr is 1 for
** a WITHOUT ROWID table, 0 for a rowid table, NULL when unknown.
**
** SQLite 3.37 and later say all of it through pragma_table_list. Before,
** sqlite_schema says which entries are views and virtual tables, wr is
** left NULL (auditLoadTable then tries the rowid), and a shadow table is
** taken to be one named after a virtual table, "_" and a suffix with no
** "_" (SQLite's own rule also asks the module). Defining
** UTF8EXT_AUDIT_NO_TABLE_LIST at compile time takes this path, to test it.
*/
static int auditListTables(audit_cursor *pCur){
  char *zSql;
  int rc;
  int bTableList = sqlite3_libversion_number()>=3037000;
#ifdef UTF8EXT_AUDIT_NO_TABLE_LIST
  bTableList = 0;
#endif
  if( bTableList ){
    zSql = sqlite3_mprintf(
        "SELECT name, type, wr FROM pragma_table_list(?1) WHERE schema=?2"
        " AND (?1 IS NOT NULL OR (type='table'"
        " AND name NOT LIKE 'sqlite\\_%%' ESCAPE '\\'))"
        " ORDER BY name");
  }else{
    zSql = sqlite3_mprintf(
        "SELECT name, CASE WHEN type='view' THEN 'view'"
        " WHEN sql LIKE 'CREATE VIRTUAL TABLE%%' THEN 'virtual'"
        " WHEN EXISTS (SELECT 1 FROM \"%w\".sqlite_master AS v"
        "   WHERE v.sql LIKE 'CREATE VIRTUAL TABLE%%'"
        "   AND substr(m.name, 1, length(v.name)+1)=v.name||'_' COLLATE NOCASE"
        "   AND instr(substr(m.name, length(v.name)+2), '_')=0)"
        " THEN 'shadow' ELSE 'table' END AS kind,"
        " NULL FROM \"%w\".sqlite_master AS m"
        " WHERE type IN ('table','view') AND CASE WHEN ?1 IS NULL"
        " THEN kind='table' AND name NOT LIKE 'sqlite\\_%%' ESCAPE '\\'"
        " ELSE name=?1 COLLATE NOCASE END"
        " ORDER BY name", pCur->zSchema, pCur->zSchema);
  }
  rc = auditPrepare(pCur, zSql, &pCur->pTables);
  if( rc!=SQLITE_OK ) return rc;
  sqlite3_bind_text(pCur->pTables, 1, pCur->zTableArg, -1, SQLITE_STATIC);
  sqlite3_bind_text(pCur->pTables, 2, pCur->zSchema, -1, SQLITE_STATIC);
  return SQLITE_OK;
}

/*
** True if the table zTab of the cursor's schema has a rowid readable as
** zAlias: a WITHOUT ROWID table has none. For SQLite before 3.37, where
** pragma_table_list does not say.
*/
static int auditHasRowid(audit_cursor *pCur, const char *zAlias){
  sqlite3_stmt *pStmt = 0;
  char *zSql = sqlite3_mprintf("SELECT \"%w\".\"%w\" FROM \"%w\".\"%w\" AS \"%w\"",
                               pCur->zTab, zAlias, pCur->zSchema, pCur->zTab,
                               pCur->zTab);
  int rc;
  if( zSql==0 ) return SQLITE_NOMEM;
  rc = sqlite3_prepare_v2(pCur->db, zSql, -1, &pStmt, 0);
  sqlite3_free(zSql);
  sqlite3_finalize(pStmt);
  return rc==SQLITE_OK;
}

/*
** Load the table pTables is on: its name, its columns in declared order,
** and the SQL that selects its rowid and declared key (pCur->zKeys).
** bWithoutRowid is 1, 0, or -1 when unknown.
*/
static int auditLoadTable(audit_cursor *pCur, int bWithoutRowid){
  static const char *const azAlias[] = { "rowid", "_rowid_", "oid" };
  sqlite3_stmt *pStmt;
  sqlite3_str *pKeys;
  const char *zAlias = 0;
  int *aiPk = 0;              /* aiPk[i]: position in the key of column i */
  int nAlloc = 0;
  int rc, i, k;

  auditResetTable(pCur);
  pCur->zTab = auditColumnDup(pCur->pTables, 0);
  if( pCur->zTab==0 ) return SQLITE_NOMEM;

  rc = auditPrepare(pCur, sqlite3_mprintf(
      "SELECT name, pk FROM pragma_table_xinfo(?1, ?2)"), &pStmt);
  if( rc!=SQLITE_OK ) return rc;
  sqlite3_bind_text(pStmt, 1, pCur->zTab, -1, SQLITE_STATIC);
  sqlite3_bind_text(pStmt, 2, pCur->zSchema, -1, SQLITE_STATIC);
  while( (rc = sqlite3_step(pStmt))==SQLITE_ROW ){
    if( pCur->nCol==nAlloc ){
      int nNew = nAlloc ? 2*nAlloc : 16;
      char **azNew = sqlite3_realloc64(pCur->azCol, nNew*sizeof(char*));
      int *aiNew = sqlite3_realloc64(aiPk, nNew*sizeof(int));
      if( azNew ) pCur->azCol = azNew;
      if( aiNew ) aiPk = aiNew;
      if( azNew==0 || aiNew==0 ){ rc = SQLITE_NOMEM; break; }
      nAlloc = nNew;
    }
    pCur->azCol[pCur->nCol] = auditColumnDup(pStmt, 0);
    if( pCur->azCol[pCur->nCol]==0 ){ rc = SQLITE_NOMEM; break; }
    aiPk[pCur->nCol] = sqlite3_column_int(pStmt, 1);
    if( aiPk[pCur->nCol]>0 ) pCur->nPk++;
    pCur->nCol++;
  }
  if( rc==SQLITE_DONE ){
    rc = SQLITE_OK;
    if( pCur->nCol==0 ){
      /* Dropped since pTables listed it. */
      rc = auditError(pCur, SQLITE_ERROR, "no such table: %s.%s",
                      pCur->zSchema, pCur->zTab);
    }
  }else if( rc!=SQLITE_NOMEM ){
    rc = auditSqlError(pCur, rc);
  }
  sqlite3_finalize(pStmt);

  /* The first name for the rowid that no column shadows. */
  for(k=0; rc==SQLITE_OK && zAlias==0 && k<3; k++){
    zAlias = azAlias[k];
    for(i=0; i<pCur->nCol; i++){
      if( sqlite3_stricmp(pCur->azCol[i], zAlias)==0 ){ zAlias = 0; break; }
    }
  }
  if( zAlias && bWithoutRowid<0 ) bWithoutRowid = !auditHasRowid(pCur, zAlias);
  pCur->bRowid = zAlias!=0 && bWithoutRowid==0;

  /* ", "tbl".rowid, "tbl"."k1", ...": the key columns in key order. */
  if( rc==SQLITE_OK ){
    pKeys = sqlite3_str_new(pCur->db);
    if( pCur->bRowid ){
      sqlite3_str_appendf(pKeys, ", \"%w\".\"%w\"", pCur->zTab, zAlias);
    }else{
      sqlite3_str_appendall(pKeys, ", NULL");
    }
    for(k=1; k<=pCur->nPk; k++){
      for(i=0; i<pCur->nCol && aiPk[i]!=k; i++){}
      if( i<pCur->nCol ){
        sqlite3_str_appendf(pKeys, ", \"%w\".\"%w\"",
                            pCur->zTab, pCur->azCol[i]);
      }
    }
    rc = sqlite3_str_errcode(pKeys);
    pCur->zKeys = sqlite3_str_finish(pKeys);
    if( rc==SQLITE_OK && pCur->zKeys==0 ) rc = SQLITE_NOMEM;
  }
  sqlite3_free(aiPk);
  return rc;
}

/*
** Step pTables to the next table to audit and load it, or set bEof.
** A named table that is missing, a view or a virtual table is an error.
*/
static int auditNextTable(audit_cursor *pCur){
  int rc = sqlite3_step(pCur->pTables);
  const char *zType;
  if( rc==SQLITE_DONE ){
    auditResetTable(pCur);
    if( pCur->zTableArg && pCur->nTables==0 ){
      return auditError(pCur, SQLITE_ERROR, "no such table: %s.%s",
                        pCur->zSchema, pCur->zTableArg);
    }
    pCur->bEof = 1;
    return SQLITE_OK;
  }
  if( rc!=SQLITE_ROW ) return auditSqlError(pCur, rc);
  pCur->nTables++;
  zType = (const char*)sqlite3_column_text(pCur->pTables, 1);
  if( zType && strcmp(zType, "view")==0 ){
    return auditError(pCur, SQLITE_ERROR, "\"%w\" is a view, not a table",
                      sqlite3_column_text(pCur->pTables, 0));
  }
  if( zType && strcmp(zType, "virtual")==0 ){
    return auditError(pCur, SQLITE_ERROR,
                      "\"%w\" is a virtual table, not an ordinary table",
                      sqlite3_column_text(pCur->pTables, 0));
  }
  return auditLoadTable(pCur,
      sqlite3_column_type(pCur->pTables, 2)==SQLITE_NULL ? -1 :
      sqlite3_column_int(pCur->pTables, 2)!=0);
}

/*
** Prepare pScan: the ill-formed TEXT values of column iCol, with the
** rowid and key of their rows (columns AUDIT_SCAN_*).
*/
static int auditScanColumn(audit_cursor *pCur){
  char *zCol = sqlite3_mprintf("\"%w\".\"%w\"",
                               pCur->zTab, pCur->azCol[pCur->iCol]);
  int rc;
  if( zCol==0 ) return SQLITE_NOMEM;
  rc = auditPrepare(pCur, sqlite3_mprintf(
      "SELECT %s%s FROM \"%w\".\"%w\" AS \"%w\" NOT INDEXED"
      " WHERE NOT utf8_valid(%s) AND typeof(%s)='text'",
      zCol, pCur->zKeys, pCur->zSchema, pCur->zTab, pCur->zTab, zCol, zCol),
      &pCur->pScan);
  sqlite3_free(zCol);
  return rc;
}

/*
** Move to the next ill-formed value: on in this column's scan, else on to
** the next column, else on to the next table; set bEof after the last.
*/
static int auditAdvance(audit_cursor *pCur){
  int rc;
  for(;;){
    if( pCur->pScan ){
      rc = sqlite3_step(pCur->pScan);
      if( rc==SQLITE_ROW ){
        sqlite3_value *pVal = sqlite3_column_value(pCur->pScan,
                                                   AUDIT_SCAN_VALUE);
        if( utf8ext_value_bytes(pVal, &pCur->zVal, &pCur->nVal)<0 ){
          return SQLITE_NOMEM;
        }
        pCur->err = utf8_scan_errors(pCur->zVal, (size_t)pCur->nVal);
        if( pCur->err.count==0 ) continue;  /* a utf8_valid() not ours */
        pCur->iRowid++;
        return SQLITE_OK;
      }
      if( rc!=SQLITE_DONE ) return auditSqlError(pCur, rc);
      sqlite3_finalize(pCur->pScan);
      pCur->pScan = 0;
      pCur->iCol++;
    }else if( pCur->iCol<pCur->nCol ){
      rc = auditScanColumn(pCur);
      if( rc!=SQLITE_OK ) return rc;
    }else{
      rc = auditNextTable(pCur);
      if( rc!=SQLITE_OK || pCur->bEof ) return rc;
    }
  }
}

/*
** xNext.
*/
static int auditNext(sqlite3_vtab_cursor *cur){
  return auditAdvance((audit_cursor*)cur);
}

/*
** xEof.
*/
static int auditEof(sqlite3_vtab_cursor *cur){
  return ((audit_cursor*)cur)->bEof;
}

/*
** Append the bytes z[0..n) to p as hexadecimal digits.
*/
static void auditAppendHex(sqlite3_str *p, const unsigned char *z,
                           sqlite3_int64 n){
  static const char hex[] = "0123456789ABCDEF";
  sqlite3_int64 i;
  for(i=0; i<n; i++){
    char a[2];
    a[0] = hex[z[i]>>4];
    a[1] = hex[z[i]&0xF];
    sqlite3_str_append(p, a, 2);
  }
}

/*
** True if the UTF-16 text z[0..n) in byte order eTextEnc cannot be written
** as a quoted SQL literal that SQLite would turn back into the same code
** units: it has a NUL, an unpaired surrogate, or U+FFFE or U+FFFF (which
** SQLite's UTF-8 to UTF-16 conversion of the SQL text makes U+FFFD).
*/
static int auditUtf16NeedsHex(const unsigned char *z, sqlite3_int64 n,
                              int eTextEnc){
  sqlite3_int64 i;
  int hi = eTextEnc==SQLITE_UTF16BE ? 0 : 1;   /* index of the high byte */
  for(i=0; i+1<n; i+=2){
    unsigned u = (unsigned)z[i+hi]<<8 | z[i+1-hi];
    if( u==0 || u>=0xFFFE ) return 1;
    if( u>=0xDC00 && u<=0xDFFF ) return 1;          /* a lone low half */
    if( u>=0xD800 && u<=0xDBFF ){
      unsigned w;
      if( i+3>=n ) return 1;
      w = (unsigned)z[i+2+hi]<<8 | z[i+3-hi];
      if( w<0xDC00 || w>0xDFFF ) return 1;
      i += 2;
    }
  }
  return n%2!=0;
}

/*
** Append v to p as an SQL literal that compares equal to it: what quote()
** writes, except that a REAL keeps all 17 digits and an infinity is
** 9e999, and TEXT that is not well-formed UTF-8 or holds a NUL (which
** quote() cuts at) is written CAST(X'...' AS TEXT).
**
** In a UTF-16 database X'...' AS TEXT is read as UTF-16, so there the hex
** is of the stored UTF-16 (read before any conversion to UTF-8, which is
** lossy for an unpaired surrogate), and it is used whenever the text has
** a NUL, an unpaired surrogate or U+FFFE/U+FFFF. eTextEnc is the
** database's text encoding.
*/
static void auditAppendLiteral(sqlite3_str *p, sqlite3_value *v, int eTextEnc){
  const unsigned char *z;
  sqlite3_int64 n;
  double r;
  switch( sqlite3_value_type(v) ){
    case SQLITE_INTEGER:
      sqlite3_str_appendf(p, "%lld", sqlite3_value_int64(v));
      break;
    case SQLITE_FLOAT:
      r = sqlite3_value_double(v);
      if( r>DBL_MAX ){
        sqlite3_str_appendall(p, "9e999");
      }else if( r< -DBL_MAX ){
        sqlite3_str_appendall(p, "-9e999");
      }else{
        sqlite3_str_appendf(p, "%!.17g", r);
      }
      break;
    case SQLITE_TEXT:
      if( eTextEnc==SQLITE_UTF16LE || eTextEnc==SQLITE_UTF16BE ){
        z = eTextEnc==SQLITE_UTF16LE ? sqlite3_value_text16le(v)
                                     : sqlite3_value_text16be(v);
        n = sqlite3_value_bytes16(v);
        if( z==0 ) break;   /* out of memory: the statement fails NOMEM */
        if( auditUtf16NeedsHex(z, n, eTextEnc) ){
          sqlite3_str_appendall(p, "CAST(X'");
          auditAppendHex(p, z, n);
          sqlite3_str_appendall(p, "' AS TEXT)");
          break;
        }
      }
      z = sqlite3_value_text(v);
      n = sqlite3_value_bytes(v);
      if( z==0 ) break;   /* out of memory: sqlite3_str_errcode() says */
      if( utf8_is_valid(z, (size_t)n) && memchr(z, 0, (size_t)n)==0 ){
        sqlite3_str_appendf(p, "%Q", z);
      }else{
        sqlite3_str_appendall(p, "CAST(X'");
        auditAppendHex(p, z, n);
        sqlite3_str_appendall(p, "' AS TEXT)");
      }
      break;
    case SQLITE_BLOB:
      z = sqlite3_value_blob(v);
      sqlite3_str_appendall(p, "X'");
      auditAppendHex(p, z, sqlite3_value_bytes(v));
      sqlite3_str_appendall(p, "'");
      break;
    default:
      sqlite3_str_appendall(p, "NULL");
      break;
  }
}

/*
** The pk column: the declared key as a literal, a row value for a
** composite key; the rowid's literal when no key is declared; NULL when
** neither can be read.
*/
static void auditResultPk(audit_cursor *pCur, sqlite3_context *ctx){
  int iFirst = pCur->nPk ? AUDIT_SCAN_PK : AUDIT_SCAN_ROWID;
  int nKey = pCur->nPk ? pCur->nPk : 1;
  sqlite3_str *p;
  int i, rc;
  if( pCur->nPk==0 && !pCur->bRowid ) return;
  p = sqlite3_str_new(pCur->db);
  if( nKey>1 ) sqlite3_str_appendall(p, "(");
  for(i=0; i<nKey; i++){
    if( i>0 ) sqlite3_str_appendall(p, ", ");
    auditAppendLiteral(p, sqlite3_column_value(pCur->pScan, iFirst+i),
                       pCur->eTextEnc);
  }
  if( nKey>1 ) sqlite3_str_appendall(p, ")");
  rc = sqlite3_str_errcode(p);
  if( rc==SQLITE_OK ){
    sqlite3_result_text(ctx, sqlite3_str_finish(p), -1, sqlite3_free);
  }else{
    sqlite3_free(sqlite3_str_finish(p));
    if( rc==SQLITE_NOMEM ){
      sqlite3_result_error_nomem(ctx);
    }else{
      sqlite3_result_error_code(ctx, rc);
    }
  }
}

/*
** The context column: see utf8_context() in core/context.c.
*/
static void auditResultContext(audit_cursor *pCur, sqlite3_context *ctx){
  size_t n = utf8_context(pCur->zVal, (size_t)pCur->nVal, pCur->err.first,
                          AUDIT_CONTEXT_CHARS, 0);
  unsigned char *z = sqlite3_malloc64(n+1);
  if( z==0 ){
    sqlite3_result_error_nomem(ctx);
    return;
  }
  utf8_context(pCur->zVal, (size_t)pCur->nVal, pCur->err.first,
               AUDIT_CONTEXT_CHARS, z);
  sqlite3_result_text64(ctx, (const char*)z, n, sqlite3_free, SQLITE_UTF8);
}

/*
** xColumn.
*/
static int auditColumn(sqlite3_vtab_cursor *cur, sqlite3_context *ctx,
                       int i){
  audit_cursor *pCur = (audit_cursor*)cur;
  switch( i ){
    case AUDIT_COLUMN_TBL:
      sqlite3_result_text(ctx, pCur->zTab, -1, SQLITE_TRANSIENT);
      break;
    case AUDIT_COLUMN_COL:
      sqlite3_result_text(ctx, pCur->azCol[pCur->iCol], -1, SQLITE_TRANSIENT);
      break;
    case AUDIT_COLUMN_ROWID:
      if( pCur->bRowid ){
        sqlite3_result_value(ctx,
            sqlite3_column_value(pCur->pScan, AUDIT_SCAN_ROWID));
      }
      break;
    case AUDIT_COLUMN_PK:
      auditResultPk(pCur, ctx);
      break;
    case AUDIT_COLUMN_OFFSET:
      sqlite3_result_int64(ctx, (sqlite3_int64)pCur->err.first);
      break;
    case AUDIT_COLUMN_ERROR:
      sqlite3_result_text(ctx,
          utf8_reason_text((utf8_reason)pCur->err.unit.reason), -1,
          SQLITE_STATIC);
      break;
    case AUDIT_COLUMN_BYTES:
      sqlite3_result_blob(ctx, pCur->zVal + pCur->err.first,
                          pCur->err.unit.length, SQLITE_TRANSIENT);
      break;
    case AUDIT_COLUMN_ERRORS:
      sqlite3_result_int64(ctx, (sqlite3_int64)pCur->err.count);
      break;
    case AUDIT_COLUMN_CONTEXT:
      auditResultContext(pCur, ctx);
      break;
    case AUDIT_COLUMN_TABLE:
      if( pCur->zTableArg ){
        sqlite3_result_text(ctx, pCur->zTableArg, -1, SQLITE_TRANSIENT);
      }
      break;
    default: /* AUDIT_COLUMN_SCHEMA */
      sqlite3_result_text(ctx, pCur->zSchema, -1, SQLITE_TRANSIENT);
      break;
  }
  return SQLITE_OK;
}

/*
** xRowid: the row's number in this audit, from 1.
*/
static int auditRowid(sqlite3_vtab_cursor *cur, sqlite_int64 *pRowid){
  *pRowid = ((audit_cursor*)cur)->iRowid;
  return SQLITE_OK;
}

/*
** Set pCur->eTextEnc to the database's text encoding (PRAGMA encoding),
** which the pk column's literals depend on.
*/
static int auditTextEncoding(audit_cursor *pCur){
  sqlite3_stmt *pStmt;
  const char *z;
  int rc = auditPrepare(pCur, sqlite3_mprintf("PRAGMA encoding"), &pStmt);
  if( rc!=SQLITE_OK ) return rc;
  rc = sqlite3_step(pStmt);
  if( rc==SQLITE_ROW ){
    z = (const char*)sqlite3_column_text(pStmt, 0);
    if( z==0 ){
      rc = SQLITE_NOMEM;
    }else{
      pCur->eTextEnc = sqlite3_stricmp(z, "UTF-16le")==0 ? SQLITE_UTF16LE :
                       sqlite3_stricmp(z, "UTF-16be")==0 ? SQLITE_UTF16BE :
                       SQLITE_UTF8;
      rc = SQLITE_OK;
    }
  }else{
    rc = auditSqlError(pCur, rc);
  }
  sqlite3_finalize(pStmt);
  return rc;
}

/*
** Copy the text of argument pVal (named zName in messages) to *pz. A name
** with a NUL byte is an error: no table or schema can have one, and the
** name must not be cut at it (utf8_audit('a' || char(0) || 'b') audited
** table "a"). An allocation failure is SQLITE_NOMEM.
*/
static int auditArgText(audit_cursor *pCur, sqlite3_value *pVal,
                        const char *zName, char **pz){
  const char *z = (const char*)sqlite3_value_text(pVal);
  int n = sqlite3_value_bytes(pVal);
  *pz = 0;
  if( z==0 ) return SQLITE_NOMEM;
  if( (int)strlen(z)!=n ){
    return auditError(pCur, SQLITE_ERROR,
                      "the %s argument contains a NUL byte", zName);
  }
  *pz = sqlite3_mprintf("%s", z);
  return *pz ? SQLITE_OK : SQLITE_NOMEM;
}

/*
** xFilter: argv[0] is TABLE, argv[1] SCHEMA when idxNum has bit 2 (see
** xBestIndex). Start over: finalize what a previous filter left, resolve
** the schema, list the tables and move to the first ill-formed value.
*/
static int auditFilter(sqlite3_vtab_cursor *cur, int idxNum,
                       const char *idxStr, int argc, sqlite3_value **argv){
  audit_cursor *pCur = (audit_cursor*)cur;
  const char *zSchema = 0;
  char *zSchemaArg = 0;
  int rc;
  (void)idxStr;

  auditReset(pCur);
  pCur->bEof = 0;
  if( argc>0 && sqlite3_value_type(argv[0])!=SQLITE_NULL ){
    rc = auditArgText(pCur, argv[0], "TABLE", &pCur->zTableArg);
    if( rc!=SQLITE_OK ){ pCur->bEof = 1; return rc; }
  }
  if( (idxNum & 2) && argc>1 && sqlite3_value_type(argv[1])!=SQLITE_NULL ){
    rc = auditArgText(pCur, argv[1], "SCHEMA", &zSchemaArg);
    if( rc!=SQLITE_OK ){ pCur->bEof = 1; return rc; }
    zSchema = zSchemaArg;
  }
  rc = auditSchema(pCur, zSchema);
  sqlite3_free(zSchemaArg);
  if( rc==SQLITE_OK ) rc = auditTextEncoding(pCur);
  if( rc==SQLITE_OK ) rc = auditListTables(pCur);
  if( rc==SQLITE_OK ) rc = auditAdvance(pCur);
  if( rc!=SQLITE_OK ) pCur->bEof = 1;
  return rc;
}

/*
** xBestIndex. idxNum bits:
**   1   TABLE is constrained (argv[0] of xFilter); always set, as the
**       plan is refused without it
**   2   SCHEMA is constrained (argv[1])
** With no constraint on TABLE at all the call is an error that says how
** to call the function; with one (on TABLE or SCHEMA) that is not usable
** in this plan, SQLITE_CONSTRAINT makes SQLite look for another plan.
*/
static int auditBestIndex(sqlite3_vtab *tab, sqlite3_index_info *pInfo){
  int aiCons[2] = { -1, -1 };   /* constraint for TABLE, SCHEMA */
  int unusable = 0;             /* bit j: an unusable EQ on argument j */
  int i, j;
  const struct sqlite3_index_constraint *pCons = pInfo->aConstraint;

  for(i=0; i<pInfo->nConstraint; i++, pCons++){
    j = pCons->iColumn - AUDIT_COLUMN_TABLE;
    if( j<0 || pCons->op!=SQLITE_INDEX_CONSTRAINT_EQ ) continue;
    if( !pCons->usable ){
      unusable |= 1<<j;
    }else{
      aiCons[j] = i;
    }
  }
  if( aiCons[0]<0 ){
    if( unusable & 1 ) return SQLITE_CONSTRAINT;
    sqlite3_free(tab->zErrMsg);
    tab->zErrMsg = sqlite3_mprintf("utf8_audit: missing argument TABLE: "
        "call it as utf8_audit('table') or utf8_audit(NULL) for every table");
    return tab->zErrMsg ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  if( aiCons[1]<0 && (unusable & 2) ) return SQLITE_CONSTRAINT;

  pInfo->idxNum = 1;
  pInfo->aConstraintUsage[aiCons[0]].argvIndex = 1;
  pInfo->aConstraintUsage[aiCons[0]].omit = 1;
  if( aiCons[1]>=0 ){
    pInfo->idxNum |= 2;
    pInfo->aConstraintUsage[aiCons[1]].argvIndex = 2;
    pInfo->aConstraintUsage[aiCons[1]].omit = 1;
  }
  /* A scan of whole tables: expensive, and done once. */
  pInfo->estimatedCost = 1e6;
  pInfo->estimatedRows = 1000;
  return SQLITE_OK;
}

/* Designated initializers: the struct grows with SQLite versions. */
static sqlite3_module auditModule = {
  .iVersion    = 0,
  .xCreate     = 0,            /* eponymous only: no CREATE VIRTUAL TABLE */
  .xConnect    = auditConnect,
  .xBestIndex  = auditBestIndex,
  .xDisconnect = auditDisconnect,
  .xOpen       = auditOpen,
  .xClose      = auditClose,
  .xFilter     = auditFilter,
  .xNext       = auditNext,
  .xEof        = auditEof,
  .xColumn     = auditColumn,
  .xRowid      = auditRowid,
};

int utf8ext_register_audit(sqlite3 *db){
  return sqlite3_create_module(db, "utf8_audit", &auditModule, 0);
}
