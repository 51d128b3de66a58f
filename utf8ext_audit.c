/*
** utf8ext_audit.c - the table-valued functions utf8_audit(TABLE [, SCHEMA])
** and utf8_audit_summary(TABLE [, SCHEMA]): what is ill-formed in the
** stored TEXT of TABLE, or of every ordinary table of SCHEMA when TABLE is
** NULL. Both only read.
**
**     SELECT tbl, col, pk, offset, error, hex(bytes), errors, context
**       FROM utf8_audit('people');
**
**     people|name|17|2|missing continuation|EB|2|Zo� Salda�a
**
**     SELECT * FROM utf8_audit_summary(NULL);   -- one row per column
**
** utf8_audit has one row per ill-formed value:
**
**     tbl      the table's name as the schema stores it
**     col      the column's name
**     rowid    the row's rowid; NULL for a WITHOUT ROWID table
**     pk       the row's declared PRIMARY KEY as an SQL literal, for people
**              to read and paste: 'k', 42, X'C080', CAST(X'C080' AS TEXT)
**              for text that is itself not well-formed, a row value
**              ('k', 2) for a composite key; the rowid when the table
**              declares no key
**     offset   0-based byte offset of the value's first ill-formed unit
**     error    that unit's reason ("overlong", "truncated", ...)
**     bytes    that unit's bytes (a BLOB)
**     errors   how many ill-formed units the value has
**     context  up to 12 characters either side of the first error, with
**              the error: repaired, with control characters made visible
**              and bidirectional controls written out (core/context.h)
**     guess    utf8_guess() of the value: the charset that best explains
**              it, 'utf-8' for damaged UTF-8, NULL when not confident
**
** utf8_audit_summary has one row per column of each audited table:
**
**     tbl, col   as above
**     checked    how many of the column's values are TEXT (and so read)
**     bad        how many of those are not well-formed
**     reasons    the distinct reasons of their first errors, comma-
**                separated, in the order of the vocabulary
**     first_pk   the pk (as above) of the first bad value, in scan order
**     mojibake   how many of the TEXT values are well-formed and would be
**                changed by utf8_unmojibake (what utf8_repair(TABLE,
**                'mojibake') repairs); in a UTF-16 database only values
**                whose stored UTF-16 is well-formed count
**     guess      utf8_guess_group() of the column's bad values: the
**                charset that explains them best together; NULL when
**                the column has no bad value
**     explained  how many of the bad values read plausibly in that
**                charset (what utf8_repair(TABLE, 'auto') decodes with
**                it); 0 when there is no guess
**
** The arguments are the hidden columns "table" and schema; "table" must be
** quoted where it is named: SELECT * FROM utf8_audit WHERE "table"='t'.
**
** Rows come by table (in name order when TABLE is NULL), then in the
** table's scan order (rowid or primary key), then by column in declared
** order. BLOBs, numbers and NULLs are not audited: only values of type
** 'text'. Generated columns are audited like any other column.
**
** Which table: names match case-insensitively; without SCHEMA a named
** table is looked up as SQL looks up an unqualified name (temp, main,
** then attached schemas), and TABLE NULL means every table of main.
** sqlite_schema (or sqlite_master) audits the schema table itself. Naming
** a view, a virtual table, or a table or schema that does not exist is an
** error; so is calling either function with no argument at all. With
** TABLE NULL, views, virtual tables and their shadow tables, SQLite's own
** sqlite_% tables and the repair log are skipped (utf8ext_scan.c).
**
** Because they read any table of any attached schema, both are
** SQLITE_VTAB_DIRECTONLY: SQL a user types may call them, a view or
** trigger stored in a database file may not.
**
** HOW IT WORKS
**
** xFilter does the whole audit before the first row is returned: for each
** table, one SELECT over all its columns (utf8ext_scan.c); every TEXT
** value is validated in C, and for the rare ill-formed one the cursor
** keeps what its row will show (a few dozen bytes: the key's literal, the
** first error, the context), never the value. So a table is read once
** whatever its number of columns, and the audit sees exactly the rows
** that existed when it began: INSERT INTO t SELECT ... FROM
** utf8_audit('t') ends, as it does for SELECT FROM t. An error while a
** table is read (a table altered by another connection sharing its cache,
** say) fails the call with SQLite's message and the table's name.
**
** Findings are kept in memory up to a budget (UTF8EXT_AUDIT_BUDGET, 4
** MiB). An import with millions of ill-formed values would not fit (some
** 170 bytes each: 1,000,000 took 160 MiB), so past the budget they move
** to a store (utf8ext_spill.c): a private temporary database on its own
** connection, which SQLite keeps in a page cache of 2 MiB and a file
** deleted on close. The user's connection, transaction, interrupt flag
** and progress handler are not involved. A finding is stored as a blob
** keyed by (table, row number in scan order, column), and once the store
** is open every finding goes there and xNext reads them back in key
** order: the order of the rows is the same, and a table read in passes
** (utf8ext_scan_width) needs no sort. Memory is then the budget plus the
** cache, whatever the number of ill-formed values. utf8_audit_summary
** keeps one entry per column, never per value, and needs no store.
**
** The virtual tables' schemas:
**
**     CREATE TABLE x(tbl, col, rowid, pk, "offset", error, bytes, errors,
**                    context, guess, "table" HIDDEN, schema HIDDEN)
**     CREATE TABLE x(tbl, col, checked, bad, reasons, first_pk, mojibake,
**                    guess, explained, "table" HIDDEN, schema HIDDEN)
*/
#include "utf8ext_scan.h"
#include "utf8ext_spill.h"
#include "context.h"
#include "guess.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

/* Column numbers of utf8_audit. */
#define AUDIT_COLUMN_TBL      0
#define AUDIT_COLUMN_COL      1
#define AUDIT_COLUMN_ROWID    2
#define AUDIT_COLUMN_PK       3
#define AUDIT_COLUMN_OFFSET   4
#define AUDIT_COLUMN_ERROR    5
#define AUDIT_COLUMN_BYTES    6
#define AUDIT_COLUMN_ERRORS   7
#define AUDIT_COLUMN_CONTEXT  8
#define AUDIT_COLUMN_GUESS    9
#define AUDIT_COLUMN_TABLE    10  /* hidden: the TABLE argument */

/* Column numbers of utf8_audit_summary. */
#define SUMMARY_COLUMN_TBL      0
#define SUMMARY_COLUMN_COL      1
#define SUMMARY_COLUMN_CHECKED  2
#define SUMMARY_COLUMN_BAD      3
#define SUMMARY_COLUMN_REASONS  4
#define SUMMARY_COLUMN_FIRST_PK 5
#define SUMMARY_COLUMN_MOJIBAKE 6
#define SUMMARY_COLUMN_GUESS    7
#define SUMMARY_COLUMN_EXPLAINED 8
#define SUMMARY_COLUMN_TABLE    9   /* hidden: the TABLE argument */

/* Characters of context shown either side of the first error. */
#define AUDIT_CONTEXT_CHARS  12

/*
** Bytes of findings utf8_audit keeps in memory before it moves them to a
** temporary database (HOW IT WORKS). 4 MiB is some 25,000 findings:
** every audit with fewer never opens the store, and above it memory stays
** at about this budget plus the store's page cache.
**
** The environment variable UTF8EXT_AUDIT_BUDGET, when it holds a number,
** replaces it: a testing knob (test/audit.test and test/malloc_test.c set
** it to 0 and small numbers to drive the store with few rows), not a
** tuning one. It is read at each xFilter rather than once, so that a test
** compares answers with and without the store in one process, and there
** is no static state for threads to share; getenv() costs nothing next
** to a table scan.
*/
#ifndef UTF8EXT_AUDIT_BUDGET
# define UTF8EXT_AUDIT_BUDGET (4*1024*1024)
#endif

/*
** One ill-formed value, as its utf8_audit row shows it.
*/
typedef struct audit_finding audit_finding;
struct audit_finding {
  int iTable;                 /* Index in the cursor's apTable */
  int iCol;                   /* The column */
  sqlite3_int64 iRowNo;       /* The row's place in the table's scan order */
  int bRowid;                 /* True if iRowid holds the rowid */
  sqlite3_int64 iRowid;       /* The row's rowid */
  char *zPk;                  /* Its key as a literal; NULL: none readable */
  int nPk;                    /* Its length in bytes; -1 when zPk is NULL */
  sqlite3_int64 iOffset;      /* Offset of the first ill-formed unit */
  utf8_unit unit;             /* That unit */
  unsigned char aBytes[4];    /* Its bytes */
  sqlite3_int64 nErrors;      /* Ill-formed units in the value */
  char *zContext;             /* The context column */
  int nContext;               /* Its length in bytes */
  int iGuess;                 /* utf8_guess() of the value (core/guess.h) */
};

/*
** One column, as its utf8_audit_summary row shows it.
*/
typedef struct audit_column audit_column;
struct audit_column {
  int iTable;                 /* Index in the cursor's apTable */
  int iCol;                   /* The column */
  sqlite3_int64 nChecked;     /* TEXT values read */
  sqlite3_int64 nBad;         /* ... that were not well-formed */
  unsigned mReasons;          /* Bit r: a first error had reason r */
  char *zFirstPk;             /* Key of the first bad value */
  sqlite3_int64 nMoji;        /* Well-formed, and utf8_unmojibake changes it */
  utf8_guess_group guess;     /* The evidence of the bad values */
  sqlite3_int64 anPlausible[UTF8_GUESS_N];  /* Bad values each charset reads
                              ** plausibly (utf8_guess_plausible_set) */
};

typedef struct audit_vtab audit_vtab;
struct audit_vtab {
  sqlite3_vtab base;          /* Base class - must be first */
  sqlite3 *db;                /* The connection the audit queries run on */
  int bSummary;               /* True for utf8_audit_summary */
};

typedef struct audit_cursor audit_cursor;
struct audit_cursor {
  sqlite3_vtab_cursor base;   /* Base class - must be first */
  char *zTableArg;            /* TABLE argument; NULL for every table */
  char *zSchema;              /* The schema's name as SQLite spells it */
  utf8ext_table **apTable;    /* The tables audited, in order */
  int nTable;                 /* Entries in apTable */
  audit_finding *aFinding;    /* utf8_audit: the ill-formed values */
  audit_column *aColumn;      /* utf8_audit_summary: the columns */
  sqlite3_int64 nRow;         /* Entries in aFinding or aColumn */
  sqlite3_int64 nAlloc;       /* Allocated entries */
  sqlite3_int64 iRow;         /* The current one, from 0 */
  int bMoji;                  /* utf8_audit_summary: count mojibake */
  int bGuess;                 /* the query reads a guess column: guess */
  /* utf8_audit past its budget (HOW IT WORKS): */
  sqlite3_int64 nBudget;      /* Bytes aFinding[] may hold before a move */
  sqlite3_int64 nMem;         /* Bytes it holds: entries and their strings */
  utf8ext_spill *pSpill;      /* The store; NULL while everything fits */
  unsigned char *aBuf;        /* A finding serialized, for the store */
  sqlite3_int64 nBuf;         /* Bytes allocated at aBuf */
  audit_finding spillRow;     /* The store's current row, once reading;
                              ** its strings point into the store's blob */
};

static const char *const azAuditSchema[2] = {
  "CREATE TABLE x(tbl, col, rowid, pk, \"offset\", error, bytes, errors,"
  " context, guess, \"table\" HIDDEN, schema HIDDEN)",
  "CREATE TABLE x(tbl, col, checked, bad, reasons, first_pk, mojibake,"
  " guess, explained, \"table\" HIDDEN, schema HIDDEN)",
};

/*
** xConnect, for both modules (pAux says which). They run queries of their
** own over any table of any attached schema, so they are
** SQLITE_VTAB_DIRECTONLY, and deliberately not SQLITE_VTAB_INNOCUOUS.
*/
static int auditConnect(sqlite3 *db, void *pAux, int argc,
                        const char *const *argv, sqlite3_vtab **ppVtab,
                        char **pzErr){
  audit_vtab *pNew;
  int bSummary = pAux!=0;
  int rc;
  (void)argc; (void)argv; (void)pzErr;

  rc = sqlite3_declare_vtab(db, azAuditSchema[bSummary]);
  if( rc!=SQLITE_OK ) return rc;
  pNew = sqlite3_malloc(sizeof(*pNew));
  if( pNew==0 ) return SQLITE_NOMEM;
  memset(pNew, 0, sizeof(*pNew));
  pNew->db = db;
  pNew->bSummary = bSummary;
#ifdef SQLITE_VTAB_DIRECTONLY
  sqlite3_vtab_config(db, SQLITE_VTAB_DIRECTONLY);
#endif
  *ppVtab = &pNew->base;
  return SQLITE_OK;
}

/* xDisconnect. */
static int auditDisconnect(sqlite3_vtab *pVtab){
  sqlite3_free(pVtab);
  return SQLITE_OK;
}

/* xOpen: a new cursor, with no rows until xFilter runs. */
static int auditOpen(sqlite3_vtab *pVtab, sqlite3_vtab_cursor **ppCursor){
  audit_cursor *pCur = sqlite3_malloc(sizeof(*pCur));
  (void)pVtab;
  if( pCur==0 ) return SQLITE_NOMEM;
  memset(pCur, 0, sizeof(*pCur));
  *ppCursor = &pCur->base;
  return SQLITE_OK;
}

/* Free everything xFilter gathered, leaving the cursor with no rows. */
static void auditReset(audit_cursor *pCur){
  sqlite3_int64 i;
  for(i=0; i<pCur->nRow; i++){
    if( pCur->aFinding ){
      sqlite3_free(pCur->aFinding[i].zPk);
      sqlite3_free(pCur->aFinding[i].zContext);
    }else{
      sqlite3_free(pCur->aColumn[i].zFirstPk);
    }
  }
  sqlite3_free(pCur->aFinding);
  sqlite3_free(pCur->aColumn);
  pCur->aFinding = 0;
  pCur->aColumn = 0;
  pCur->nRow = pCur->nAlloc = pCur->iRow = 0;
  utf8ext_spill_close(pCur->pSpill);
  pCur->pSpill = 0;
  sqlite3_free(pCur->aBuf);
  pCur->aBuf = 0;
  pCur->nBuf = pCur->nMem = 0;
  for(i=0; i<pCur->nTable; i++) utf8ext_table_free(pCur->apTable[i]);
  sqlite3_free(pCur->apTable);
  pCur->apTable = 0;
  pCur->nTable = 0;
  sqlite3_free(pCur->zTableArg);
  pCur->zTableArg = 0;
  sqlite3_free(pCur->zSchema);
  pCur->zSchema = 0;
}

/* xClose. */
static int auditClose(sqlite3_vtab_cursor *cur){
  auditReset((audit_cursor*)cur);
  sqlite3_free(cur);
  return SQLITE_OK;
}

/* The function's name, for messages. */
static const char *auditName(audit_cursor *pCur){
  return ((audit_vtab*)pCur->base.pVtab)->bSummary ? "utf8_audit_summary"
                                                   : "utf8_audit";
}

/*
** Set the virtual table's error message to "<function>: " and the
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
  /* cut to SQLITE_LIMIT_LENGTH, under which SQLite copies it: longer,
  ** the user would see "SQL logic error" instead */
  pVtab->zErrMsg = utf8ext_message_fit(((audit_vtab*)pVtab)->db,
                       sqlite3_mprintf("%s: %s", auditName(pCur), zMsg));
  sqlite3_free(zMsg);
  return pVtab->zErrMsg ? rc : SQLITE_NOMEM;
}

/* Pass on rc with the message the scanner wrote to zErr (freed here). */
static int auditScanError(audit_cursor *pCur, int rc, char *zErr){
  if( zErr ) rc = auditError(pCur, rc, "%s", zErr);
  sqlite3_free(zErr);
  return rc;
}

/* Make room for one more row; SQLITE_NOMEM when there is none. */
static int auditGrow(audit_cursor *pCur){
  void *pNew;
  sqlite3_int64 nNew;
  size_t sz;
  if( pCur->nRow<pCur->nAlloc ) return SQLITE_OK;
  nNew = pCur->nAlloc ? 2*pCur->nAlloc : 64;
  if( ((audit_vtab*)pCur->base.pVtab)->bSummary ){
    sz = sizeof(audit_column);
    pNew = sqlite3_realloc64(pCur->aColumn, nNew*sz);
    if( pNew ) pCur->aColumn = pNew;
  }else{
    sz = sizeof(audit_finding);
    pNew = sqlite3_realloc64(pCur->aFinding, nNew*sz);
    if( pNew ) pCur->aFinding = pNew;
  }
  if( pNew==0 ) return SQLITE_NOMEM;
  pCur->nAlloc = nNew;
  return SQLITE_OK;
}

/*
** A finding in the store is one blob: a head of AUDIT_SPILL_HEAD bytes
** with the fields its row shows (below, native byte order: the store
** lives and dies with the cursor), then nPk bytes of key literal, then
** nContext bytes of context. The row number is in the store's key only.
*/
#define AUDIT_SPILL_HEAD 56
#define AUDIT_SPILL_PUT(a, off, v)  memcpy((a)+(off), &(v), sizeof(v))
#define AUDIT_SPILL_GET(a, off, v)  memcpy(&(v), (a)+(off), sizeof(v))

/*
** Move every finding in aFinding[] to the store, opening it the first
** time, and empty aFinding[] (it is kept allocated, to be filled again).
** Each is keyed by (table, row number, column), so the store gives the
** documented order back whatever order the findings came in.
*/
static int auditSpill(audit_cursor *pCur){
  char *zErr = 0;
  int rc = SQLITE_OK;
  sqlite3_int64 i;
  if( pCur->pSpill==0 ){
    rc = utf8ext_spill_open(&pCur->pSpill, &zErr);
  }
  for(i=0; rc==SQLITE_OK && i<pCur->nRow; i++){
    const audit_finding *f = &pCur->aFinding[i];
    int nPk = f->nPk>0 ? f->nPk : 0;
    sqlite3_int64 n = AUDIT_SPILL_HEAD + nPk + f->nContext;
    unsigned char *a;
    if( n>0x7fffffff ){
      rc = auditError(pCur, SQLITE_TOOBIG, "a finding of %lld bytes is too"
                      " large for the temporary store", n);
      break;
    }
    if( n>pCur->nBuf ){
      unsigned char *aNew = sqlite3_realloc64(pCur->aBuf, (sqlite3_uint64)n);
      if( aNew==0 ){ rc = SQLITE_NOMEM; break; }
      pCur->aBuf = aNew;
      pCur->nBuf = n;
    }
    a = pCur->aBuf;
    memset(a, 0, AUDIT_SPILL_HEAD);
    a[0] = (unsigned char)f->bRowid;
    a[1] = f->unit.reason;
    a[2] = f->unit.length;
    memcpy(a+4, f->aBytes, 4);
    AUDIT_SPILL_PUT(a, 8, f->iRowid);
    AUDIT_SPILL_PUT(a, 16, f->iOffset);
    AUDIT_SPILL_PUT(a, 24, f->nErrors);
    AUDIT_SPILL_PUT(a, 32, f->iTable);
    AUDIT_SPILL_PUT(a, 36, f->iCol);
    AUDIT_SPILL_PUT(a, 40, f->nPk);
    AUDIT_SPILL_PUT(a, 44, f->nContext);
    AUDIT_SPILL_PUT(a, 48, f->iGuess);
    if( nPk ) memcpy(a+AUDIT_SPILL_HEAD, f->zPk, (size_t)nPk);
    if( f->nContext ){
      memcpy(a+AUDIT_SPILL_HEAD+nPk, f->zContext, (size_t)f->nContext);
    }
    rc = utf8ext_spill_put(pCur->pSpill, f->iTable, f->iRowNo, f->iCol,
                           a, (int)n, &zErr);
  }
  if( rc!=SQLITE_OK ) return auditScanError(pCur, rc, zErr);
  for(i=0; i<pCur->nRow; i++){
    sqlite3_free(pCur->aFinding[i].zPk);
    sqlite3_free(pCur->aFinding[i].zContext);
  }
  pCur->nRow = 0;
  pCur->nMem = 0;
  return SQLITE_OK;
}

/*
** Make the store's current row pCur->spillRow (nothing at its end): the
** inverse of auditSpill(). A blob of another size cannot come from it.
*/
static int auditSpillRow(audit_cursor *pCur){
  audit_finding *f = &pCur->spillRow;
  const unsigned char *a;
  int n, nPk;
  if( utf8ext_spill_eof(pCur->pSpill) ) return SQLITE_OK;
  a = utf8ext_spill_blob(pCur->pSpill, &n);
  if( a==0 || n<AUDIT_SPILL_HEAD ) return SQLITE_NOMEM;
  memset(f, 0, sizeof(*f));
  f->bRowid = a[0];
  f->unit.reason = a[1];
  f->unit.length = a[2];
  memcpy(f->aBytes, a+4, 4);
  AUDIT_SPILL_GET(a, 8, f->iRowid);
  AUDIT_SPILL_GET(a, 16, f->iOffset);
  AUDIT_SPILL_GET(a, 24, f->nErrors);
  AUDIT_SPILL_GET(a, 32, f->iTable);
  AUDIT_SPILL_GET(a, 36, f->iCol);
  AUDIT_SPILL_GET(a, 40, f->nPk);
  AUDIT_SPILL_GET(a, 44, f->nContext);
  AUDIT_SPILL_GET(a, 48, f->iGuess);
  nPk = f->nPk>0 ? f->nPk : 0;
  if( f->nContext<0 || f->unit.length>4 || f->iTable<0
   || f->iTable>=pCur->nTable || f->iCol<0
   || f->iCol>=pCur->apTable[f->iTable]->nCol
   || (sqlite3_int64)AUDIT_SPILL_HEAD+nPk+f->nContext!=n ){
    return auditError(pCur, SQLITE_CORRUPT, "temporary store: a row is damaged");
  }
  f->zPk = f->nPk>=0 ? (char*)a+AUDIT_SPILL_HEAD : 0;
  f->zContext = (char*)a+AUDIT_SPILL_HEAD+nPk;
  return SQLITE_OK;
}

/*
** Record the ill-formed value z[0..n) (errors e) of column iCol in the
** row pScan is on, table pCur->apTable[iTable].
*/
static int auditAddFinding(audit_cursor *pCur, int iTable, int iCol,
                           sqlite3_int64 iRowNo, sqlite3_stmt *pScan,
                           const unsigned char *z, sqlite3_int64 n,
                           utf8_errors e){
  const utf8ext_table *pTab = pCur->apTable[iTable];
  audit_finding *f;
  size_t nCtx;
  int rc = auditGrow(pCur);
  if( rc!=SQLITE_OK ) return rc;
  f = &pCur->aFinding[pCur->nRow];
  memset(f, 0, sizeof(*f));
  f->iTable = iTable;
  f->iCol = iCol;
  f->iRowNo = iRowNo;
  if( pTab->zRowid ){
    f->bRowid = 1;
    f->iRowid = sqlite3_column_int64(pScan, UTF8EXT_SCAN_ROWID);
  }
  f->nPk = -1;
  if( pTab->nPk>0 || pTab->zRowid ){
    size_t nPk;
    f->zPk = utf8ext_scan_pk_literal(pTab, pScan);
    if( f->zPk==0 ) return SQLITE_NOMEM;
    nPk = strlen(f->zPk);
    if( nPk>0x7fffff00 ){
      /* only with SQLITE_MAX_LENGTH raised past 1e9: a blob key of over
      ** 1 GB, whose hex literal would not fit the store's int sizes */
      sqlite3_free(f->zPk);
      f->zPk = 0;
      return auditError(pCur, SQLITE_TOOBIG, "a key's literal of %lld bytes"
                        " in table \"%w\" is too long", (sqlite3_int64)nPk,
                        pTab->zName);
    }
    f->nPk = (int)nPk;
  }
  pCur->nRow++;               /* from here on auditReset frees it */
  f->iOffset = (sqlite3_int64)e.first;
  f->unit = e.unit;
  memcpy(f->aBytes, z+e.first, e.unit.length);
  f->nErrors = (sqlite3_int64)e.count;
  f->iGuess = pCur->bGuess ? utf8_guess(z, (size_t)n) : UTF8_GUESS_NONE;
  nCtx = utf8_context(z, (size_t)n, e.first, AUDIT_CONTEXT_CHARS, 0);
  f->zContext = sqlite3_malloc64(nCtx+1);
  if( f->zContext==0 ) return SQLITE_NOMEM;
  utf8_context(z, (size_t)n, e.first, AUDIT_CONTEXT_CHARS,
               (unsigned char*)f->zContext);
  f->nContext = (int)nCtx;
  pCur->nMem += (sqlite3_int64)sizeof(*f) + f->nPk + 1 + f->nContext + 1;
  return pCur->nMem>pCur->nBudget ? auditSpill(pCur) : SQLITE_OK;
}

/* qsort() order of findings of one table: scan order, then column. */
static int auditFindingCmp(const void *a, const void *b){
  const audit_finding *x = a, *y = b;
  if( x->iRowNo!=y->iRowNo ) return x->iRowNo<y->iRowNo ? -1 : 1;
  return (x->iCol>y->iCol) - (x->iCol<y->iCol);
}

/*
** Read table pCur->apTable[iTable] once, every column of every row, and
** record what each function reports of it. For the summary, its columns'
** entries are aColumn[iFirst..iFirst+nCol). A table too wide for one
** result row is read in passes of columns, and its findings sorted back
** into scan order. *paMoji, *pnMoji: scratch for the mojibake count.
*/
static int auditReadTableWith(audit_cursor *pCur, sqlite3 *db, int iTable,
                              unsigned char **paMoji, sqlite3_int64 *pnMoji){
  const utf8ext_table *pTab = pCur->apTable[iTable];
  int bSummary = ((audit_vtab*)pCur->base.pVtab)->bSummary;
  sqlite3_int64 iFirst = pCur->nRow;
  sqlite3_stmt *pScan = 0;
  int nWidth = utf8ext_scan_width(db, pTab);
  int rc = SQLITE_OK, i, iPass;

  if( bSummary ){
    for(i=0; rc==SQLITE_OK && i<pTab->nCol; i++){
      rc = auditGrow(pCur);
      if( rc==SQLITE_OK ){
        audit_column *c = &pCur->aColumn[pCur->nRow++];
        memset(c, 0, sizeof(*c));
        c->iTable = iTable;
        c->iCol = i;
      }
    }
    if( rc!=SQLITE_OK ) return rc;
  }
  for(iPass=0; rc==SQLITE_OK && iPass<pTab->nCol; iPass+=nWidth){
    int iEnd = iPass+nWidth<pTab->nCol ? iPass+nWidth : pTab->nCol;
    sqlite3_int64 iRowNo = 0;
    char *zSql = utf8ext_scan_sql(pTab, iPass, nWidth);
    if( zSql==0 ) return SQLITE_NOMEM;
    rc = sqlite3_prepare_v2(db, zSql, -1, &pScan, 0);
    sqlite3_free(zSql);
    while( rc==SQLITE_OK && (rc = sqlite3_step(pScan))==SQLITE_ROW ){
      rc = SQLITE_OK;
      iRowNo++;
      for(i=iPass; rc==SQLITE_OK && i<iEnd; i++){
        /* One call per column: each sqlite3_column_*() takes the
        ** connection's mutex, the sqlite3_value_*() calls on its value do
        ** not (the mutex is held for this whole call anyway). */
        sqlite3_value *v = sqlite3_column_value(pScan,
                                                UTF8EXT_SCAN_COL(pTab, i-iPass));
        const unsigned char *z;
        sqlite3_int64 n;
        utf8_errors e;
        int bExact = 1;     /* SQLite's UTF-8 of it is exact */
        if( sqlite3_value_type(v)!=SQLITE_TEXT ) continue;
        if( bSummary && pCur->bMoji && pTab->eTextEnc!=SQLITE_UTF8 ){
          /* before sqlite3_value_text(), which converts it in place */
          if( !utf8ext_stored_text(v, pTab->eTextEnc, &z, &n) ){
            rc = SQLITE_NOMEM;
            break;
          }
          bExact = utf8ext_utf16_well_formed(z, n, pTab->eTextEnc);
        }
        z = sqlite3_value_text(v);
        n = sqlite3_value_bytes(v);
        if( z==0 ){ rc = SQLITE_NOMEM; break; }
        if( bSummary ) pCur->aColumn[iFirst+i].nChecked++;
        if( utf8_is_valid(z, (size_t)n) ){
          if( bSummary && bExact && pCur->bMoji ){
            /* the mojibake count: what utf8_repair(t, 'mojibake') repairs */
            sqlite3_int64 nOut;
            int r = utf8ext_moji_repair_of(pTab, i, z, n, paMoji, pnMoji, &nOut);
            if( r<0 ){ rc = SQLITE_NOMEM; break; }
            pCur->aColumn[iFirst+i].nMoji += r>0;
          }
          continue;
        }
        e = utf8_scan_errors(z, (size_t)n);
        if( bSummary ){
          audit_column *c = &pCur->aColumn[iFirst+i];
          if( pCur->bGuess ){
            int32_t score[UTF8_GUESS_N];
            uint64_t hash[UTF8_GUESS_N];
            uint64_t m;
            int g;
            utf8_guess_score(z, (size_t)n, score, hash);
            utf8_guess_group_add(&c->guess, score, hash);
            m = utf8_guess_plausible_set(score);
            for(g=0; g<UTF8_GUESS_N; g++) c->anPlausible[g] += (m>>g) & 1;
          }
          c->nBad++;
          c->mReasons |= 1u<<e.unit.reason;
          if( c->zFirstPk==0 && (pTab->nPk>0 || pTab->zRowid) ){
            c->zFirstPk = utf8ext_scan_pk_literal(pTab, pScan);
            if( c->zFirstPk==0 ) rc = SQLITE_NOMEM;
          }
        }else{
          rc = auditAddFinding(pCur, iTable, i, iRowNo, pScan, z, n, e);
        }
      }
    }
    if( rc==SQLITE_DONE ) rc = SQLITE_OK;
    if( rc!=SQLITE_OK ){
      char *zMsg = sqlite3_mprintf("%s", sqlite3_errmsg(db));
      sqlite3_finalize(pScan);
      if( rc==SQLITE_NOMEM || zMsg==0 ){
        sqlite3_free(zMsg);
        return SQLITE_NOMEM;
      }
      rc = auditError(pCur, rc, "reading table \"%w\".\"%w\" failed: %s",
                      pTab->zSchema, pTab->zName, zMsg);
      sqlite3_free(zMsg);
      return rc;
    }
    rc = sqlite3_finalize(pScan);
    pScan = 0;
  }
  /* in the store, findings are in order by their key already (and those
  ** of this table before iFirst have left aFinding[]) */
  if( rc==SQLITE_OK && !bSummary && nWidth<pTab->nCol && pCur->pSpill==0
   && pCur->nRow-iFirst>1 ){
    qsort(&pCur->aFinding[iFirst], (size_t)(pCur->nRow-iFirst),
          sizeof(audit_finding), auditFindingCmp);
  }
  return rc;
}

/* auditReadTableWith() and the scratch of its mojibake count. */
static int auditReadTable(audit_cursor *pCur, sqlite3 *db, int iTable){
  unsigned char *aMoji = 0;
  sqlite3_int64 nMoji = 0;
  int rc = auditReadTableWith(pCur, db, iTable, &aMoji, &nMoji);
  sqlite3_free(aMoji);
  return rc;
}

/*
** Audit every table pList lists. A named table that is missing, a view or
** a virtual table is an error.
*/
static int auditAllTables(audit_cursor *pCur, sqlite3 *db,
                          sqlite3_stmt *pList){
  int rc;
  while( (rc = sqlite3_step(pList))==SQLITE_ROW ){
    const char *zName = (const char*)sqlite3_column_text(pList, 0);
    const char *zType = (const char*)sqlite3_column_text(pList, 1);
    utf8ext_table **apNew;
    char *zErr = 0;
    if( zName==0 || zType==0 ) return SQLITE_NOMEM;
    if( strcmp(zType, "view")==0 ){
      return auditError(pCur, SQLITE_ERROR, "\"%w\" is a view, not a table",
                        zName);
    }
    if( strcmp(zType, "virtual")==0 ){
      return auditError(pCur, SQLITE_ERROR,
                        "\"%w\" is a virtual table, not an ordinary table",
                        zName);
    }
    apNew = sqlite3_realloc64(pCur->apTable,
                              (pCur->nTable+1)*sizeof(utf8ext_table*));
    if( apNew==0 ) return SQLITE_NOMEM;
    pCur->apTable = apNew;
    rc = utf8ext_table_load(db, pCur->zSchema, zName,
        sqlite3_column_type(pList, 2)==SQLITE_NULL ? -1 :
        sqlite3_column_int(pList, 2)!=0, &pCur->apTable[pCur->nTable], &zErr);
    if( rc!=SQLITE_OK ) return auditScanError(pCur, rc, zErr);
    pCur->nTable++;
    rc = auditReadTable(pCur, db, pCur->nTable-1);
    if( rc!=SQLITE_OK ) return rc;
  }
  if( rc!=SQLITE_DONE ){
    return auditError(pCur, rc, "%s", sqlite3_errmsg(db));
  }
  if( pCur->zTableArg && pCur->nTable==0 ){
    sqlite3_str *s = sqlite3_str_new(0);
    char *z;
    utf8ext_append_escaped(s, (const unsigned char*)pCur->zTableArg,
                           (sqlite3_int64)strlen(pCur->zTableArg));
    z = sqlite3_str_finish(s);
    if( z==0 ) return SQLITE_NOMEM;
    rc = auditError(pCur, SQLITE_ERROR, "no such table: %s.%s",
                    pCur->zSchema, z);
    sqlite3_free(z);
    return rc;
  }
  return SQLITE_OK;
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
** The budget of this audit: UTF8EXT_AUDIT_BUDGET, or the environment
** variable of that name when it is a number of bytes (see its #define).
*/
static sqlite3_int64 auditBudget(void){
  const char *z = getenv("UTF8EXT_AUDIT_BUDGET");
  sqlite3_int64 n = 0;
  if( z==0 || *z==0 ) return UTF8EXT_AUDIT_BUDGET;
  for(; *z>='0' && *z<='9' && n<((sqlite3_int64)1<<40); z++) n = n*10 + (*z-'0');
  return *z==0 ? n : UTF8EXT_AUDIT_BUDGET;
}

/*
** xFilter: argv[0] is TABLE, argv[1] SCHEMA when idxNum has bit 2 (see
** xBestIndex). Start over, then do the whole audit (see HOW IT WORKS).
*/
static int auditFilter(sqlite3_vtab_cursor *cur, int idxNum,
                       const char *idxStr, int argc, sqlite3_value **argv){
  audit_cursor *pCur = (audit_cursor*)cur;
  sqlite3 *db = ((audit_vtab*)cur->pVtab)->db;
  sqlite3_stmt *pList = 0;
  char *zSchemaArg = 0;
  char *zErr = 0;
  int rc = SQLITE_OK;
  (void)idxStr;

  auditReset(pCur);
  pCur->bMoji = (idxNum & 4)!=0;
  pCur->bGuess = (idxNum & 8)!=0;
  pCur->nBudget = auditBudget();
  if( argc>0 && sqlite3_value_type(argv[0])!=SQLITE_NULL ){
    rc = auditArgText(pCur, argv[0], "TABLE", &pCur->zTableArg);
  }
  if( rc==SQLITE_OK && (idxNum & 2) && argc>1
   && sqlite3_value_type(argv[1])!=SQLITE_NULL ){
    rc = auditArgText(pCur, argv[1], "SCHEMA", &zSchemaArg);
  }
  if( rc==SQLITE_OK ){
    rc = utf8ext_resolve_schema(db, pCur->zTableArg, zSchemaArg,
                                &pCur->zSchema, &zErr);
    if( rc!=SQLITE_OK ) rc = auditScanError(pCur, rc, zErr), zErr = 0;
  }
  sqlite3_free(zSchemaArg);
  if( rc==SQLITE_OK ){
    rc = utf8ext_list_tables(db, pCur->zSchema, pCur->zTableArg, &pList,
                             &zErr);
    if( rc!=SQLITE_OK ) rc = auditScanError(pCur, rc, zErr), zErr = 0;
  }
  if( rc==SQLITE_OK ) rc = auditAllTables(pCur, db, pList);
  sqlite3_finalize(pList);
  if( rc==SQLITE_OK && pCur->pSpill ){
    /* past the budget: the rest joins the store, and rows come from it */
    rc = auditSpill(pCur);
    if( rc==SQLITE_OK ){
      rc = utf8ext_spill_rewind(pCur->pSpill, &zErr);
      if( rc!=SQLITE_OK ) rc = auditScanError(pCur, rc, zErr), zErr = 0;
    }
    if( rc==SQLITE_OK ) rc = auditSpillRow(pCur);
  }
  if( rc!=SQLITE_OK ){
    /* keep the message, drop the rows */
    char *zMsg = cur->pVtab->zErrMsg;
    cur->pVtab->zErrMsg = 0;
    auditReset(pCur);
    cur->pVtab->zErrMsg = zMsg;
  }
  return rc;
}

/* xNext: the next finding, from aFinding[] or from the store. */
static int auditNext(sqlite3_vtab_cursor *cur){
  audit_cursor *pCur = (audit_cursor*)cur;
  pCur->iRow++;
  if( pCur->pSpill ){
    char *zErr = 0;
    int rc = utf8ext_spill_next(pCur->pSpill, &zErr);
    if( rc!=SQLITE_OK ) return auditScanError(pCur, rc, zErr);
    return auditSpillRow(pCur);
  }
  return SQLITE_OK;
}

/* xEof. */
static int auditEof(sqlite3_vtab_cursor *cur){
  audit_cursor *pCur = (audit_cursor*)cur;
  if( pCur->pSpill ) return utf8ext_spill_eof(pCur->pSpill);
  return pCur->iRow>=pCur->nRow;
}

/* Return a hidden argument's column: TABLE as given, SCHEMA as resolved. */
static void auditResultArg(audit_cursor *pCur, sqlite3_context *ctx,
                           int bSchema){
  const char *z = bSchema ? pCur->zSchema : pCur->zTableArg;
  if( z ) sqlite3_result_text(ctx, z, -1, SQLITE_TRANSIENT);
}

/* xColumn of utf8_audit. */
static int auditColumn(sqlite3_vtab_cursor *cur, sqlite3_context *ctx,
                       int i){
  audit_cursor *pCur = (audit_cursor*)cur;
  const audit_finding *f = pCur->pSpill ? &pCur->spillRow
                                        : &pCur->aFinding[pCur->iRow];
  const utf8ext_table *pTab = pCur->apTable[f->iTable];
  switch( i ){
    case AUDIT_COLUMN_TBL:
      sqlite3_result_text(ctx, pTab->zName, -1, SQLITE_TRANSIENT);
      break;
    case AUDIT_COLUMN_COL:
      sqlite3_result_text(ctx, pTab->azCol[f->iCol], -1, SQLITE_TRANSIENT);
      break;
    case AUDIT_COLUMN_ROWID:
      if( f->bRowid ) sqlite3_result_int64(ctx, f->iRowid);
      break;
    case AUDIT_COLUMN_PK:
      if( f->zPk ) sqlite3_result_text(ctx, f->zPk, f->nPk, SQLITE_TRANSIENT);
      break;
    case AUDIT_COLUMN_OFFSET:
      sqlite3_result_int64(ctx, f->iOffset);
      break;
    case AUDIT_COLUMN_ERROR:
      sqlite3_result_text(ctx, utf8_reason_text((utf8_reason)f->unit.reason),
                          -1, SQLITE_STATIC);
      break;
    case AUDIT_COLUMN_BYTES:
      sqlite3_result_blob(ctx, f->aBytes, f->unit.length, SQLITE_TRANSIENT);
      break;
    case AUDIT_COLUMN_ERRORS:
      sqlite3_result_int64(ctx, f->nErrors);
      break;
    case AUDIT_COLUMN_CONTEXT:
      sqlite3_result_text(ctx, f->zContext, f->nContext, SQLITE_TRANSIENT);
      break;
    case AUDIT_COLUMN_GUESS:
      if( f->iGuess!=UTF8_GUESS_NONE ){
        sqlite3_result_text(ctx, utf8_guess_name(f->iGuess), -1, SQLITE_STATIC);
      }
      break;
    default:
      auditResultArg(pCur, ctx, i!=AUDIT_COLUMN_TABLE);
      break;
  }
  return SQLITE_OK;
}

/*
** The reasons of mask m (bit r for reason r), comma-separated in the
** vocabulary's order, as a result of ctx.
*/
static void auditResultReasons(sqlite3_context *ctx, unsigned m){
  sqlite3_str *s = sqlite3_str_new(0);
  int r, n = 0;
  for(r=1; r<UTF8_REASON_COUNT; r++){
    if( (m & (1u<<r))==0 ) continue;
    if( n++ ) sqlite3_str_appendall(s, ",");
    sqlite3_str_appendall(s, utf8_reason_text((utf8_reason)r));
  }
  if( sqlite3_str_errcode(s)!=SQLITE_OK ){
    sqlite3_free(sqlite3_str_finish(s));
    sqlite3_result_error_nomem(ctx);
    return;
  }
  sqlite3_result_text(ctx, n ? sqlite3_str_value(s) : "", -1, SQLITE_TRANSIENT);
  sqlite3_free(sqlite3_str_finish(s));
}

/* xColumn of utf8_audit_summary. */
static int summaryColumn(sqlite3_vtab_cursor *cur, sqlite3_context *ctx,
                         int i){
  audit_cursor *pCur = (audit_cursor*)cur;
  const audit_column *c = &pCur->aColumn[pCur->iRow];
  const utf8ext_table *pTab = pCur->apTable[c->iTable];
  switch( i ){
    case SUMMARY_COLUMN_TBL:
      sqlite3_result_text(ctx, pTab->zName, -1, SQLITE_TRANSIENT);
      break;
    case SUMMARY_COLUMN_COL:
      sqlite3_result_text(ctx, pTab->azCol[c->iCol], -1, SQLITE_TRANSIENT);
      break;
    case SUMMARY_COLUMN_CHECKED:
      sqlite3_result_int64(ctx, c->nChecked);
      break;
    case SUMMARY_COLUMN_BAD:
      sqlite3_result_int64(ctx, c->nBad);
      break;
    case SUMMARY_COLUMN_REASONS:
      auditResultReasons(ctx, c->mReasons);
      break;
    case SUMMARY_COLUMN_FIRST_PK:
      if( c->zFirstPk ) sqlite3_result_text(ctx, c->zFirstPk, -1, SQLITE_TRANSIENT);
      break;
    case SUMMARY_COLUMN_MOJIBAKE:
      /* NULL, never a wrong 0, if SQLite asks for a column it said it
      ** would not use (see xBestIndex) */
      if( pCur->bMoji ) sqlite3_result_int64(ctx, c->nMoji);
      break;
    case SUMMARY_COLUMN_GUESS:
    case SUMMARY_COLUMN_EXPLAINED: {
      int g;
      /* NULL, as above, if the plan said the guess was not wanted */
      if( !pCur->bGuess ) break;
      g = utf8_guess_group_pick(&c->guess);
      if( i==SUMMARY_COLUMN_EXPLAINED ){
        sqlite3_result_int64(ctx, g==UTF8_GUESS_NONE ? 0 : c->anPlausible[g]);
      }else if( g!=UTF8_GUESS_NONE ){
        sqlite3_result_text(ctx, utf8_guess_name(g), -1, SQLITE_STATIC);
      }
      break;
    }
    default:
      auditResultArg(pCur, ctx, i!=SUMMARY_COLUMN_TABLE);
      break;
  }
  return SQLITE_OK;
}

/* xRowid: the row's number in this audit, from 1. */
static int auditRowid(sqlite3_vtab_cursor *cur, sqlite_int64 *pRowid){
  *pRowid = ((audit_cursor*)cur)->iRow + 1;
  return SQLITE_OK;
}

/*
** xBestIndex, for both modules. idxNum bits:
**   1   TABLE is constrained (argv[0] of xFilter); always set, as the
**       plan is refused without it
**   2   SCHEMA is constrained (argv[1])
**   4   utf8_audit_summary: the query uses the mojibake column, so xFilter
**       counts it; the count costs a look at every well-formed value that
**       may be mojibake (SELECT count(*) or the other columns do not pay)
**   8   the query uses a guess column (utf8_audit's guess, the summary's
**       guess or explained), so xFilter guesses each bad value: the
**       guess is the dearest thing an audit computes per bad value
** With no constraint on TABLE at all the call is an error that says how
** to call the function; with one (on TABLE or SCHEMA) that is not usable
** in this plan, SQLITE_CONSTRAINT makes SQLite look for another plan.
*/
static int auditBestIndex(sqlite3_vtab *tab, sqlite3_index_info *pInfo){
  int bSummary = ((audit_vtab*)tab)->bSummary;
  int iFirstArg = bSummary ? SUMMARY_COLUMN_TABLE : AUDIT_COLUMN_TABLE;
  int aiCons[2] = { -1, -1 };   /* constraint for TABLE, SCHEMA */
  int unusable = 0;             /* bit j: an unusable EQ on argument j */
  int i, j;
  const struct sqlite3_index_constraint *pCons = pInfo->aConstraint;

  for(i=0; i<pInfo->nConstraint; i++, pCons++){
    j = pCons->iColumn - iFirstArg;
    if( j<0 || pCons->op!=SQLITE_INDEX_CONSTRAINT_EQ ) continue;
    if( !pCons->usable ){
      unusable |= 1<<j;
    }else{
      aiCons[j] = i;
    }
  }
  if( aiCons[0]<0 ){
    const char *zName = bSummary ? "utf8_audit_summary" : "utf8_audit";
    if( unusable & 1 ) return SQLITE_CONSTRAINT;
    sqlite3_free(tab->zErrMsg);
    tab->zErrMsg = sqlite3_mprintf("%s: missing argument TABLE: "
        "call it as %s('table') or %s(NULL) for every table",
        zName, zName, zName);
    return tab->zErrMsg ? SQLITE_ERROR : SQLITE_NOMEM;
  }
  if( aiCons[1]<0 && (unusable & 2) ) return SQLITE_CONSTRAINT;

  pInfo->idxNum = 1;
  /* colUsed came with SQLite 3.10.0: before it, always count and guess */
  if( sqlite3_libversion_number()<3010000 ){
    pInfo->idxNum |= bSummary ? 4|8 : 8;
  }else{
    sqlite3_uint64 mGuess = bSummary
        ? ((sqlite3_uint64)1<<SUMMARY_COLUMN_GUESS)
          | ((sqlite3_uint64)1<<SUMMARY_COLUMN_EXPLAINED)
        : ((sqlite3_uint64)1<<AUDIT_COLUMN_GUESS);
    if( bSummary
     && (pInfo->colUsed & ((sqlite3_uint64)1<<SUMMARY_COLUMN_MOJIBAKE)) ){
      pInfo->idxNum |= 4;
    }
    if( pInfo->colUsed & mGuess ) pInfo->idxNum |= 8;
  }
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

static sqlite3_module summaryModule = {
  .iVersion    = 0,
  .xCreate     = 0,
  .xConnect    = auditConnect,
  .xBestIndex  = auditBestIndex,
  .xDisconnect = auditDisconnect,
  .xOpen       = auditOpen,
  .xClose      = auditClose,
  .xFilter     = auditFilter,
  .xNext       = auditNext,
  .xEof        = auditEof,
  .xColumn     = summaryColumn,
  .xRowid      = auditRowid,
};

int utf8ext_register_audit(sqlite3 *db){
  static int bSummary = 1;    /* pAux: non-NULL for the summary */
  int rc = sqlite3_create_module(db, "utf8_audit", &auditModule, 0);
  if( rc==SQLITE_OK ){
    rc = sqlite3_create_module(db, "utf8_audit_summary", &summaryModule,
                               &bSummary);
  }
  return rc;
}
