/*
** utf8ext_guard.c - utf8_guard(TABLE [, SCHEMA]) and utf8_unguard(TABLE
** [, SCHEMA]): triggers that keep ill-formed text out of a table that
** already exists, without rebuilding it for CHECK constraints.
**
**     SELECT utf8_guard('people');     -- 2: columns guarded
**     INSERT INTO people(name) VALUES (CAST(x'5A6FEB' AS TEXT));
**         -- utf8_guard: ill-formed UTF-8 in people.name; use utf8_fix()
**         -- or utf8_recode() first
**     SELECT utf8_unguard('people');   -- 2: triggers dropped
**
** THE TRIGGERS
**
** utf8_guard makes two triggers in the table's schema, named after it:
**
**     CREATE TRIGGER "utf8_guard_t_insert" BEFORE INSERT ON "t" FOR EACH ROW BEGIN
**       SELECT RAISE(ABORT, 'utf8_guard: ill-formed UTF-8 in t.c; use ...')
**         WHERE typeof(NEW."c")='text' AND NOT utf8_valid(NEW."c");
**       ... one SELECT per column
**     END
**     CREATE TRIGGER "utf8_guard_t_update" BEFORE UPDATE OF "c", ... ON "t"
**       ... the same SELECTs, each with
**         AND NOT (typeof(OLD."c")='text' AND CAST(OLD."c" AS BLOB)=CAST(NEW."c" AS BLOB))
**
** (each SELECT on one line). The columns are every column that can hold
** TEXT: all but generated columns (never written; their sources are), the
** INTEGER PRIMARY KEY (the rowid) and, in a STRICT table, columns declared
** INT, INTEGER, REAL or BLOB. A BLOB,
** a number or NULL passes (typeof). An UPDATE that leaves a column's value
** as it was passes for that column, as a CHECK constraint on a column not
** in the SET list is not checked: a row that still holds ill-formed text
** can have its other columns updated, and repaired one column at a time
** (utf8_repair's 'mojibake' method on a row with an ill-formed
** neighbour).
**
** The SQL above, byte for byte, is the only mark of a guard trigger: a
** trigger is utf8_guard's when its name is utf8_guard_<its table>_insert
** or _update and its SQL (as sqlite_schema keeps it) is exactly what
** utf8_guard writes for its table and the columns it names
** (utf8ext_guard_trigger_kind). So a trigger made by hand with that name
** and any other SQL is never replaced or dropped, and a guard whose table
** or column was renamed since (ALTER TABLE rewrites the ON clause and the
** NEW."c", not the names in the trigger's name and message) is no longer
** recognised: drop it by hand and guard the table again. utf8_repair
** (utf8ext_job.c) lets a table's guard triggers be, as a repair writes
** only well-formed text; utf8_undo, which writes the ill-formed originals
** back, refuses a guarded table before it starts.
**
** A second utf8_guard of a guarded table replaces its triggers when the
** columns changed (ALTER TABLE ADD COLUMN), else changes nothing; either
** way it returns the number of columns guarded. A table with no column
** that can hold TEXT gets no triggers (and loses any it had): 0.
**
** Every connection that writes a guarded table needs utf8ext loaded: a
** trigger's body is compiled into every INSERT and UPDATE of the table,
** and without utf8_valid those fail with "no such function: utf8_valid".
** Reading needs nothing.
**
** HOW A CALL IS ALL OR NOTHING
**
** Its transaction is a job's of utf8ext_job.c, without a log
** (utf8ext_job_begin_nolog): BEGIN IMMEDIATE in autocommit, else a
** savepoint of the call's own in the user's transaction; every existing
** trigger is looked at before the first change, so a name taken by a
** trigger that is not utf8_guard's refuses the call before anything
** changes; on any failure the call's work is rolled back. When a ROLLBACK
** cannot run (sqlite3_interrupt() stops every statement until the
** calling one ends), an INSERT of no rows into the table, prepared before
** and again after each change (utf8ext_job_renew_rescue), is stepped: a
** statement that writes stopped while it runs makes SQLite roll back the
** whole transaction. Each message says what became of the database:
** "nothing was changed", that SQLite rolled back the user's whole
** transaction, or that the open transaction holds the call's changes
** and must be rolled back. That last end is met only by a TEMP table: a
** change of the temp schema expires every prepared statement, the rescue
** too, and under sqlite3_interrupt() none can be prepared again, so an
** interrupt that comes between the call's two changes leaves the first
** in the open transaction (test/guard.test, 8.6.*, sweeps every point).
**
** Both functions are SQLITE_DIRECTONLY: SQL a user types may call them,
** never a view or trigger stored in a database file.
*/
#include "utf8ext_job.h"

#include <stdarg.h>
#include <string.h>

#define GUARD_PREFIX   "utf8_guard_"
#define GUARD_ADVICE   "; use utf8_fix() or utf8_recode() first"
/* Why a trigger utf8_guard made may no longer be recognised as its own. */
#define GUARD_RENAMED  \
  ", as a guard's is not once ALTER TABLE renamed its table or a column"
/* What marks a column in a trigger's SQL: the identifier that follows. */
#define GUARD_COL_MARK "WHERE typeof(NEW."

/* The two triggers of a table, in the order they are made. */
static const char *const azKind[] = { "insert", "update" };

/*
** One call of utf8_guard or utf8_unguard.
*/
typedef struct guard_call guard_call;
struct guard_call {
  repair_job job;             /* The transaction (utf8ext_job.c): db, zFunc
                              ** ("utf8_guard" or "utf8_unguard"), zSchema
                              ** (the table's, as SQLite spells it), zErr */
  char *zTable;               /* The table, as its schema stores the name */
  char **azCol;               /* The columns to guard */
  int nCol;                   /* Entries in azCol */
  char *zAnyCol;              /* A column an INSERT may name (the rescue) */
  char *azSql[2];             /* utf8_guard: each trigger's SQL, as
                              ** sqlite_schema keeps it */
  char *azHave[2];            /* The SQL of the trigger of that name now
                              ** (NULL: there is none) */
};

/* ---- messages --------------------------------------------------------- */

/* utf8ext_job_error() with "table "t": " before it (the name escaped). */
static int guard_table_error(guard_call *g, int rc, const char *zFormat, ...){
  sqlite3_str *s;
  char *zMsg, *zName;
  va_list ap;
  if( rc==SQLITE_NOMEM || g->job.zErr ) return rc;
  va_start(ap, zFormat);
  zMsg = sqlite3_vmprintf(zFormat, ap);
  va_end(ap);
  s = sqlite3_str_new(0);
  utf8ext_append_escaped(s, (const unsigned char*)g->zTable,
                         (sqlite3_int64)strlen(g->zTable));
  zName = sqlite3_str_finish(s);
  if( zMsg && zName ) rc = utf8ext_job_error(&g->job, rc, "table \"%s\": %s", zName, zMsg);
  else rc = SQLITE_NOMEM;
  sqlite3_free(zMsg);
  sqlite3_free(zName);
  return rc;
}

/* ---- the triggers' SQL ----------------------------------------------- */

/* The name of trigger kind k (0 insert, 1 update) of table zTable. */
static char *guard_trigger_name(const char *zTable, int k){
  return sqlite3_mprintf(GUARD_PREFIX "%s_%s", zTable, azKind[k]);
}

/*
** Append "table.col" to s for a message, each name escaped, so that the
** message is well-formed UTF-8 whatever the names' bytes.
*/
static void append_names(sqlite3_str *s, const char *zTable, const char *zCol){
  utf8ext_append_escaped(s, (const unsigned char*)zTable,
                         (sqlite3_int64)strlen(zTable));
  sqlite3_str_appendchar(s, 1, '.');
  utf8ext_append_escaped(s, (const unsigned char*)zCol,
                         (sqlite3_int64)strlen(zCol));
}

/*
** The CREATE TRIGGER statement of trigger kind k of table zTable over the
** columns azCol[0..nCol), exactly as sqlite_schema keeps it (the schema
** is not named there). *pnMsg, when not NULL, gets the length of its
** longest message. NULL when out of memory.
*/
static char *guard_sql(const char *zTable, int k, char *const *azCol,
                       int nCol, sqlite3_int64 *pnMsg){
  sqlite3_str *s = sqlite3_str_new(0);
  sqlite3_str *m = sqlite3_str_new(0);
  sqlite3_int64 nMsg = 0;
  int i;
  sqlite3_str_appendf(s, "CREATE TRIGGER \"" GUARD_PREFIX "%w_%s\" BEFORE ",
                      zTable, azKind[k]);
  if( k==0 ){
    sqlite3_str_appendall(s, "INSERT");
  }else{
    sqlite3_str_appendall(s, "UPDATE OF ");
    for(i=0; i<nCol; i++){
      sqlite3_str_appendf(s, "%s\"%w\"", i ? ", " : "", azCol[i]);
    }
  }
  sqlite3_str_appendf(s, " ON \"%w\" FOR EACH ROW BEGIN\n", zTable);
  for(i=0; i<nCol; i++){
    const char *zMsg;
    sqlite3_str_reset(m);
    sqlite3_str_appendall(m, "utf8_guard: ill-formed UTF-8 in ");
    append_names(m, zTable, azCol[i]);
    sqlite3_str_appendall(m, GUARD_ADVICE);
    zMsg = sqlite3_str_value(m);
    if( zMsg==0 ) break;      /* out of memory: s is abandoned below */
    if( sqlite3_str_length(m)>nMsg ) nMsg = sqlite3_str_length(m);
    sqlite3_str_appendf(s, "  SELECT RAISE(ABORT, '%q') " GUARD_COL_MARK
        "\"%w\")='text' AND NOT utf8_valid(NEW.\"%w\")", zMsg, azCol[i],
        azCol[i]);
    if( k==1 ){
      sqlite3_str_appendf(s, " AND NOT (typeof(OLD.\"%w\")='text' AND"
          " CAST(OLD.\"%w\" AS BLOB)=CAST(NEW.\"%w\" AS BLOB))", azCol[i],
          azCol[i], azCol[i]);
    }
    sqlite3_str_appendall(s, ";\n");
  }
  sqlite3_str_appendall(s, "END");
  if( pnMsg ) *pnMsg = nMsg;
  if( i<nCol || sqlite3_str_errcode(m)!=SQLITE_OK
   || sqlite3_str_errcode(s)!=SQLITE_OK ){
    sqlite3_free(sqlite3_str_finish(m));
    sqlite3_free(sqlite3_str_finish(s));
    return 0;
  }
  sqlite3_free(sqlite3_str_finish(m));
  return sqlite3_str_finish(s);
}

/*
** The columns trigger SQL zSql names after GUARD_COL_MARK, outside
** literals and quoted names, in order, into *pazCol (from sqlite3_malloc,
** each name too; free with free_names()). Whatever zSql is, the caller
** compares it with guard_sql() of what is found here, so this only has to
** read guard_sql()'s output right. SQLITE_NOMEM or SQLITE_OK.
*/
static int guard_sql_columns(const char *zSql, char ***pazCol, int *pnCol){
  static const int nMark = (int)sizeof(GUARD_COL_MARK)-1;
  const char *z = zSql;
  char **azCol = 0;
  int nCol = 0, nAlloc = 0;
  *pazCol = 0;
  *pnCol = 0;
  while( *z ){
    char q = *z;
    const char *zStart, *zClose;
    if( q!='"' && q!='\'' ){ z++; continue; }
    zStart = z;
    for(z++; *z; z++){
      if( *z==q ){
        if( z[1]!=q ) break;
        z++;
      }
    }
    zClose = z;               /* the closing quote, or the end */
    if( *z ) z++;
    /* the mark, unquoted, just before a quoted name: a quote ends every
    ** literal and name, and the mark holds none, so it is plain SQL */
    if( q=='"' && zStart-zSql>=nMark
     && memcmp(zStart-nMark, GUARD_COL_MARK, nMark)==0 ){
      sqlite3_str *s = sqlite3_str_new(0);
      const char *p;
      char *zName;
      /* inside, a quote stands only doubled */
      for(p=zStart+1; p<zClose; p++){
        sqlite3_str_appendchar(s, 1, *p);
        if( *p=='"' ) p++;
      }
      zName = sqlite3_str_finish(s);
      if( zName==0 ) goto no_mem;
      if( nCol==nAlloc ){
        int nNew = nAlloc ? 2*nAlloc : 8;
        char **azNew = sqlite3_realloc64(azCol, sizeof(char*)*nNew);
        if( azNew==0 ){ sqlite3_free(zName); goto no_mem; }
        azCol = azNew;
        nAlloc = nNew;
      }
      azCol[nCol++] = zName;
    }
  }
  *pazCol = azCol;
  *pnCol = nCol;
  return SQLITE_OK;
no_mem:
  while( nCol>0 ) sqlite3_free(azCol[--nCol]);
  sqlite3_free(azCol);
  return SQLITE_NOMEM;
}

static void free_names(char **az, int n){
  int i;
  for(i=0; az && i<n; i++) sqlite3_free(az[i]);
  sqlite3_free(az);
}

int utf8ext_guard_trigger_kind(const char *zTable, const char *zName,
                               const char *zSql){
  char **azCol = 0;
  int nCol = 0, k, rc, eKind = 0;
  if( zTable==0 || zName==0 || zSql==0 ) return 0;
  for(k=0; k<2; k++){
    char *zWant = guard_trigger_name(zTable, k);
    if( zWant==0 ) return -SQLITE_NOMEM;
    rc = strcmp(zWant, zName);
    sqlite3_free(zWant);
    if( rc==0 ) break;
  }
  if( k==2 ) return 0;
  rc = guard_sql_columns(zSql, &azCol, &nCol);
  if( rc!=SQLITE_OK ) return -rc;
  if( nCol>0 ){
    char *zWant = guard_sql(zTable, k, azCol, nCol, 0);
    if( zWant==0 ){
      eKind = -SQLITE_NOMEM;
    }else if( strcmp(zWant, zSql)==0 ){
      eKind = k==0 ? UTF8EXT_GUARD_INSERT : UTF8EXT_GUARD_UPDATE;
    }
    sqlite3_free(zWant);
  }
  free_names(azCol, nCol);
  return eKind;
}

/* ---- the table ---------------------------------------------------------- */

/*
** Read the name arguments into g: the table (as its schema stores the
** name) and its schema. Refuse what is not an ordinary table of its own.
*/
static int guard_table(guard_call *g, int argc, sqlite3_value **argv){
  const char *zTable = 0, *zSchema = 0, *zKind = 0;
  sqlite3_stmt *pList = 0;
  int rc, i;
  for(i=0; i<argc; i++){
    const char *z;
    if( sqlite3_value_type(argv[i])==SQLITE_NULL ){
      if( i==0 ){
        return utf8ext_job_error(&g->job, SQLITE_ERROR, "the TABLE argument is NULL:"
            " name one table");
      }
      continue;
    }
    z = (const char*)sqlite3_value_text(argv[i]);
    if( z==0 ) return SQLITE_NOMEM;
    if( (int)strlen(z)!=sqlite3_value_bytes(argv[i]) ){
      return utf8ext_job_error(&g->job, SQLITE_ERROR, "the %s argument contains a NUL byte",
                         i ? "SCHEMA" : "TABLE");
    }
    if( i==0 ) zTable = z; else zSchema = z;
  }
  rc = utf8ext_resolve_schema(g->job.db, zTable, zSchema, &g->job.zSchema, &g->job.zErr);
  if( rc==SQLITE_OK ){
    rc = utf8ext_list_tables(g->job.db, g->job.zSchema, zTable, &pList, &g->job.zErr);
  }
  if( rc==SQLITE_OK ){
    rc = sqlite3_step(pList);
    if( rc==SQLITE_ROW ){
      g->zTable = utf8ext_column_dup(pList, 0);
      zKind = (const char*)sqlite3_column_text(pList, 1);
      rc = g->zTable && zKind ? SQLITE_OK : SQLITE_NOMEM;
    }else if( rc==SQLITE_DONE ){
      sqlite3_str *s = sqlite3_str_new(0);
      sqlite3_str_appendf(s, "no such table: %s.", g->job.zSchema);
      utf8ext_append_escaped(s, (const unsigned char*)zTable,
                             (sqlite3_int64)strlen(zTable));
      g->job.zErr = sqlite3_str_finish(s);
      rc = g->job.zErr ? SQLITE_ERROR : SQLITE_NOMEM;
    }else{
      rc = utf8ext_job_sql_error(&g->job, rc);
    }
  }
  if( rc==SQLITE_OK ){
    const char *zWhy = 0;
    if( strcmp(zKind, "view")==0 ){
      zWhy = "it is a view, not a table";
    }else if( strcmp(zKind, "virtual")==0 ){
      zWhy = "it is a virtual table, which SQLite allows no triggers on";
    }else if( strcmp(zKind, "shadow")==0 ){
      zWhy = "it is a shadow table of a virtual table, whose module owns it";
    }else if( sqlite3_strnicmp(g->zTable, "sqlite_", 7)==0 ){
      zWhy = "it is SQLite's own table";
    }else if( sqlite3_stricmp(g->zTable, UTF8EXT_LOG_TABLE)==0 ){
      zWhy = "it is the repair log, which must have no triggers";
    }
    if( zWhy ) rc = guard_table_error(g, SQLITE_ERROR, "%s", zWhy);
  }
  sqlite3_finalize(pList);
  return rc;
}

/* True if zType, a STRICT table's column type, holds no TEXT. */
static int strict_not_text(const char *zType){
  return zType && (sqlite3_stricmp(zType, "INT")==0
                   || sqlite3_stricmp(zType, "INTEGER")==0
                   || sqlite3_stricmp(zType, "REAL")==0
                   || sqlite3_stricmp(zType, "BLOB")==0);
}

/*
** The columns of g's table that can hold TEXT into g->azCol, and one
** column an INSERT may name into g->zAnyCol. The INTEGER PRIMARY KEY is
** the rowid, which holds only integers: a table's key is its rowid when
** it is one column and has no index of origin 'pk' (WITHOUT ROWID, a
** composite key, another type and INTEGER PRIMARY KEY DESC have one).
*/
static int guard_columns(guard_call *g){
  sqlite3_stmt *pStmt = 0;
  int rc, bStrict = 0, nAlloc = 0, nPk = 0, iPkAt = -1, nPkIndex = 0;
  /* STRICT came in SQLite 3.37 with pragma_table_list; before, none is */
  char *zSql = sqlite3_mprintf("SELECT strict FROM pragma_table_list(?1)"
                               " WHERE schema=?2 COLLATE NOCASE");
  if( zSql==0 ) return SQLITE_NOMEM;
  if( sqlite3_prepare_v2(g->job.db, zSql, -1, &pStmt, 0)==SQLITE_OK ){
    sqlite3_bind_text(pStmt, 1, g->zTable, -1, SQLITE_STATIC);
    sqlite3_bind_text(pStmt, 2, g->job.zSchema, -1, SQLITE_STATIC);
    if( sqlite3_step(pStmt)==SQLITE_ROW ) bStrict = sqlite3_column_int(pStmt, 0);
  }
  sqlite3_free(zSql);
  rc = sqlite3_finalize(pStmt);
  if( rc==SQLITE_NOMEM ) return rc;
  rc = sqlite3_prepare_v2(g->job.db, "SELECT name, hidden, type, pk, (SELECT"
      " count(*) FROM pragma_index_list(?1, ?2) WHERE origin='pk') FROM"
      " pragma_table_xinfo(?1, ?2)", -1, &pStmt, 0);
  if( rc!=SQLITE_OK ) return utf8ext_job_sql_error(&g->job, rc);
  sqlite3_bind_text(pStmt, 1, g->zTable, -1, SQLITE_STATIC);
  sqlite3_bind_text(pStmt, 2, g->job.zSchema, -1, SQLITE_STATIC);
  while( (rc = sqlite3_step(pStmt))==SQLITE_ROW ){
    int hidden = sqlite3_column_int(pStmt, 1);
    int bPk = sqlite3_column_int(pStmt, 3)>0;
    char *zName;
    nPkIndex = sqlite3_column_int(pStmt, 4);
    nPk += bPk;
    if( hidden==2 || hidden==3 ) continue;      /* generated */
    zName = utf8ext_column_dup(pStmt, 0);
    if( zName==0 ){ rc = SQLITE_NOMEM; break; }
    if( g->zAnyCol==0 ){
      g->zAnyCol = sqlite3_mprintf("%s", zName);
      if( g->zAnyCol==0 ){ sqlite3_free(zName); rc = SQLITE_NOMEM; break; }
    }
    if( bStrict && strict_not_text((const char*)sqlite3_column_text(pStmt, 2)) ){
      sqlite3_free(zName);
      continue;
    }
    if( g->nCol==nAlloc ){
      int nNew = nAlloc ? 2*nAlloc : 16;
      char **azNew = sqlite3_realloc64(g->azCol, sizeof(char*)*nNew);
      if( azNew==0 ){ sqlite3_free(zName); rc = SQLITE_NOMEM; break; }
      g->azCol = azNew;
      nAlloc = nNew;
    }
    if( bPk ) iPkAt = g->nCol;
    g->azCol[g->nCol++] = zName;
  }
  if( rc==SQLITE_DONE ){
    rc = SQLITE_OK;
    if( nPk==1 && nPkIndex==0 && iPkAt>=0 ){
      /* the rowid: out of the list, the others' order kept */
      sqlite3_free(g->azCol[iPkAt]);
      memmove(&g->azCol[iPkAt], &g->azCol[iPkAt+1],
              sizeof(char*)*(g->nCol-iPkAt-1));
      g->nCol--;
    }
  }else if( rc!=SQLITE_NOMEM ){
    rc = utf8ext_job_sql_error(&g->job, rc);
  }
  sqlite3_finalize(pStmt);
  return rc;
}

/*
** The SQL of both triggers into g->azSql, refused when a statement or
** one of its messages would pass the connection's limits (the names are
** too long): SQLite would refuse the statement, or drop the message.
*/
static int guard_make_sql(guard_call *g){
  sqlite3_int64 nSqlMax = sqlite3_limit(g->job.db, SQLITE_LIMIT_SQL_LENGTH, -1);
  sqlite3_int64 nLenMax = sqlite3_limit(g->job.db, SQLITE_LIMIT_LENGTH, -1);
  int k;
  if( nLenMax<nSqlMax ) nSqlMax = nLenMax;  /* sqlite_schema keeps the text */
  for(k=0; k<2; k++){
    sqlite3_int64 nMsg = 0, nSql;
    g->azSql[k] = guard_sql(g->zTable, k, g->azCol, g->nCol, &nMsg);
    if( g->azSql[k]==0 ) return SQLITE_NOMEM;
    /* created with "schema". before the trigger's name */
    nSql = (sqlite3_int64)strlen(g->azSql[k]) + 2*strlen(g->job.zSchema) + 3;
    if( nSql>=nSqlMax ){
      return guard_table_error(g, SQLITE_TOOBIG, "the trigger's SQL would"
          " be %lld bytes, more than this connection allows (%lld:"
          " SQLITE_LIMIT_SQL_LENGTH, SQLITE_LIMIT_LENGTH); the names of the"
          " table and its columns are too long", nSql, nSqlMax);
    }
    if( nMsg>=nLenMax ){
      return guard_table_error(g, SQLITE_TOOBIG, "a message of the trigger"
          " would be %lld bytes, more than SQLITE_LIMIT_LENGTH (%lld); the"
          " names are too long", nMsg, nLenMax);
    }
  }
  return SQLITE_OK;
}

/*
** Look at the triggers named as the guard's of g's table, into g->azHave
** (their SQL; NULL where there is none), and refuse one that is not
** utf8_guard's.
*/
static int guard_lookup(guard_call *g){
  sqlite3_stmt *pStmt = 0;
  int k, rc;
  char *zSql = sqlite3_mprintf("SELECT name, tbl_name, sql FROM"
      " \"%w\".sqlite_master WHERE type='trigger' AND name=?1 COLLATE NOCASE",
      g->job.zSchema);
  if( zSql==0 ) return SQLITE_NOMEM;
  rc = sqlite3_prepare_v2(g->job.db, zSql, -1, &pStmt, 0);
  sqlite3_free(zSql);
  if( rc!=SQLITE_OK ) return utf8ext_job_sql_error(&g->job, rc);
  for(k=0; rc==SQLITE_OK && k<2; k++){
    char *zName = guard_trigger_name(g->zTable, k);
    if( zName==0 ){ rc = SQLITE_NOMEM; break; }
    sqlite3_bind_text(pStmt, 1, zName, -1, SQLITE_STATIC);
    rc = sqlite3_step(pStmt);
    if( rc==SQLITE_ROW ){
      const char *zHas = (const char*)sqlite3_column_text(pStmt, 0);
      const char *zTbl = (const char*)sqlite3_column_text(pStmt, 1);
      const char *zText = (const char*)sqlite3_column_text(pStmt, 2);
      int eKind = utf8ext_guard_trigger_kind(zTbl, zHas, zText);
      rc = SQLITE_OK;
      if( eKind<0 ){
        rc = -eKind;
      }else if( eKind!=k+1 || sqlite3_stricmp(zTbl, g->zTable)!=0 ){
        sqlite3_str *s = sqlite3_str_new(0);
        char *zEsc;
        utf8ext_append_escaped(s, (const unsigned char*)zHas,
                               (sqlite3_int64)strlen(zHas));
        zEsc = sqlite3_str_finish(s);
        if( zEsc==0 ){
          rc = SQLITE_NOMEM;
        }else if( strcmp(g->job.zFunc, "utf8_guard")==0 ){
          rc = guard_table_error(g, SQLITE_ERROR, "trigger \"%s\" already"
              " exists and is not one utf8_guard made (its SQL is not what"
              " utf8_guard writes for this table%s); drop or rename it first",
              zEsc, GUARD_RENAMED);
        }else{
          rc = guard_table_error(g, SQLITE_ERROR, "trigger \"%s\" is not one"
              " utf8_guard made (its SQL is not what utf8_guard writes for"
              " this table%s), so it is not dropped; drop it yourself if it"
              " should go", zEsc, GUARD_RENAMED);
        }
        sqlite3_free(zEsc);
      }else{
        g->azHave[k] = sqlite3_mprintf("%s", zText);
        if( g->azHave[k]==0 ) rc = SQLITE_NOMEM;
      }
    }else if( rc==SQLITE_DONE ){
      rc = SQLITE_OK;
    }else{
      rc = utf8ext_job_sql_error(&g->job, rc);
    }
    sqlite3_reset(pStmt);
    sqlite3_clear_bindings(pStmt);
    sqlite3_free(zName);
  }
  sqlite3_finalize(pStmt);
  return rc;
}

/* ---- the transaction ---------------------------------------------------- */

/*
** The rescue's SQL (utf8ext_job.c): an INSERT into the table that changes
** nothing, long enough for a progress handler to stop it while it runs.
** The job prepares it before its transaction begins, and again after each
** change (guard_exec()). NULL when out of memory, or when no column can
** be named.
*/
static char *guard_rescue_sql(guard_call *g){
  if( g->zAnyCol==0 ) return 0;
  return sqlite3_mprintf("WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL"
      " SELECT i+1 FROM c WHERE i<100000) INSERT INTO \"%w\".\"%w\"(\"%w\")"
      " SELECT NULL FROM c WHERE i<0", g->job.zSchema, g->zTable, g->zAnyCol);
}

/*
** Report the outcome (the count n, or the error and what became of the
** database: utf8ext_job_result()) and free what the call holds.
*/
static void guard_result(sqlite3_context *ctx, guard_call *g, int rc, int n){
  int k;
  g->job.nChanged = n;
  utf8ext_job_result(ctx, &g->job, rc);
  sqlite3_free(g->zTable);
  sqlite3_free(g->zAnyCol);
  free_names(g->azCol, g->nCol);
  for(k=0; k<2; k++){
    sqlite3_free(g->azSql[k]);
    sqlite3_free(g->azHave[k]);
  }
  memset(g, 0, sizeof(*g));
}

/* ---- the changes ------------------------------------------------------------ */

/*
** Run one change of the schema, then prepare the rescue again: also when
** the change reports an error, as it may have run (a progress handler
** called on its way out).
*/
static int guard_exec(guard_call *g, char *zSql, const char *zWhat, int k){
  int rc;
  char *zMsg = 0;
  if( zSql==0 ) return SQLITE_NOMEM;
  rc = sqlite3_exec(g->job.db, zSql, 0, 0, 0);
  sqlite3_free(zSql);
  if( rc!=SQLITE_OK ) zMsg = sqlite3_mprintf("%s", sqlite3_errmsg(g->job.db));
  utf8ext_job_renew_rescue(&g->job);
  if( rc!=SQLITE_OK ){
    char *zName = guard_trigger_name(g->zTable, k);
    if( zName && zMsg ){
      sqlite3_str *s = sqlite3_str_new(0);
      char *zEsc;
      utf8ext_append_escaped(s, (const unsigned char*)zName,
                             (sqlite3_int64)strlen(zName));
      zEsc = sqlite3_str_finish(s);
      if( zEsc ){
        rc = guard_table_error(g, rc, "%s trigger \"%s\": %s", zWhat, zEsc,
                               zMsg);
      }else{
        rc = SQLITE_NOMEM;
      }
      sqlite3_free(zEsc);
    }else{
      rc = SQLITE_NOMEM;
    }
    sqlite3_free(zName);
    sqlite3_free(zMsg);
    return rc;
  }
  return SQLITE_OK;
}

/* DROP trigger kind k of g's table. */
static int guard_drop(guard_call *g, int k){
  char *zName = guard_trigger_name(g->zTable, k);
  int rc;
  if( zName==0 ) return SQLITE_NOMEM;
  rc = guard_exec(g, sqlite3_mprintf("DROP TRIGGER \"%w\".\"%w\"", g->job.zSchema,
                                     zName), "dropping", k);
  sqlite3_free(zName);
  return rc;
}

/*
** utf8_guard(TABLE [, SCHEMA]): see the top of this file.
*/
static void guardFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv){
  static const int nCreate = (int)sizeof("CREATE TRIGGER ")-1;
  guard_call g;
  int rc, k;
  memset(&g, 0, sizeof(g));
  g.job.db = sqlite3_context_db_handle(ctx);
  g.job.zFunc = "utf8_guard";
  rc = guard_table(&g, argc, argv);
  if( rc==SQLITE_OK ) rc = guard_columns(&g);
  if( rc==SQLITE_OK ) rc = guard_make_sql(&g);
  if( rc==SQLITE_OK ){
    rc = utf8ext_job_begin_nolog(&g.job, guard_rescue_sql(&g));
    if( rc==SQLITE_OK ) rc = guard_lookup(&g);
    for(k=0; rc==SQLITE_OK && k<2; k++){
      if( g.nCol>0 && g.azHave[k] && strcmp(g.azHave[k], g.azSql[k])==0 ){
        continue;             /* as it would be made: kept */
      }
      if( g.azHave[k] ) rc = guard_drop(&g, k);
      if( rc==SQLITE_OK && g.nCol>0 ){
        /* "CREATE TRIGGER "schema"."name" ...": sqlite_schema keeps it
        ** without the schema, as g.azSql[k] is */
        rc = guard_exec(&g, sqlite3_mprintf("CREATE TRIGGER \"%w\".%s",
                        g.job.zSchema, g.azSql[k]+nCreate), "creating", k);
      }
    }
    rc = utf8ext_job_end(&g.job, rc);
  }
  guard_result(ctx, &g, rc, g.nCol);
}

/*
** utf8_unguard(TABLE [, SCHEMA]): drop the triggers utf8_guard made on
** TABLE, and only those; returns how many (0 when it was not guarded).
*/
static void unguardFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv){
  guard_call g;
  int rc, k, n = 0;
  memset(&g, 0, sizeof(g));
  g.job.db = sqlite3_context_db_handle(ctx);
  g.job.zFunc = "utf8_unguard";
  rc = guard_table(&g, argc, argv);
  if( rc==SQLITE_OK ) rc = guard_columns(&g);   /* for the rescue */
  if( rc==SQLITE_OK ){
    rc = utf8ext_job_begin_nolog(&g.job, guard_rescue_sql(&g));
    if( rc==SQLITE_OK ) rc = guard_lookup(&g);
    for(k=0; rc==SQLITE_OK && k<2; k++){
      if( g.azHave[k]==0 ) continue;
      rc = guard_drop(&g, k);
      if( rc==SQLITE_OK ) n++;
    }
    rc = utf8ext_job_end(&g.job, rc);
  }
  guard_result(ctx, &g, rc, n);
}

int utf8ext_register_guard(sqlite3 *db){
  /* Writes the schema: never from a view or trigger in a database file. */
  static const int flags = SQLITE_UTF8 | SQLITE_DIRECTONLY;
  int rc = SQLITE_OK, n;
  for(n=1; rc==SQLITE_OK && n<=2; n++){
    rc = sqlite3_create_function(db, "utf8_guard", n, flags, 0, guardFunc, 0, 0);
    if( rc==SQLITE_OK ){
      rc = sqlite3_create_function(db, "utf8_unguard", n, flags, 0,
                                   unguardFunc, 0, 0);
    }
  }
  return rc;
}
