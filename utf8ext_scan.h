/*
** utf8ext_scan.h - the table scanner that utf8_audit, utf8_audit_summary
** and utf8_repair share (utf8ext_scan.c). It finds the tables a call
** means, learns each one's columns and key, and reads a table in one
** SELECT over all its columns. It writes nothing.
*/
#ifndef UTF8EXT_SCAN_H
#define UTF8EXT_SCAN_H

#include "utf8ext_glue.h"

/* The name of the repair log; neither audited nor repaired with TABLE NULL. */
#define UTF8EXT_LOG_TABLE "utf8_repair_log"

/*
** One table's shape, as its schema declares it when it is loaded.
*/
typedef struct utf8ext_table utf8ext_table;
struct utf8ext_table {
  char *zSchema;          /* The schema, as SQLite spells it */
  char *zName;            /* The table, as the schema stores it */
  char *zFrom;            /* Its name in a FROM clause (sqlite_master for
                          ** the schema table on every SQLite version) */
  int nCol;               /* Columns, generated ones included */
  char **azCol;           /* Their names, in declared order */
  unsigned char *aGenerated; /* aGenerated[i]: column i is generated */
  unsigned char *aNumeric;   /* aNumeric[i]: column i has INTEGER, REAL or
                             ** NUMERIC affinity (text that reads as a
                             ** number is stored as one) */
  int nPk;                /* Columns of the declared PRIMARY KEY */
  int *aiPk;              /* aiPk[k]: the column of key part k */
  int nPkPart;            /* WITHOUT ROWID: parts of the key's index (a
                          ** column may be in it twice, by two collations) */
  int *aiPkPart;          /* aiPkPart[j]: the key part (k) index part j is */
  char **azPkColl;        /* azPkColl[j]: the collation index part j compares
                          ** by (NULL when not WITHOUT ROWID) */
  int bWithoutRowid;      /* True for a WITHOUT ROWID table */
  const char *zRowid;     /* A name that reads the true rowid (rowid,
                          ** _rowid_, oid or the INTEGER PRIMARY KEY), or
                          ** NULL: WITHOUT ROWID, or every name shadowed */
  char *zRowidCol;        /* The INTEGER PRIMARY KEY's name when zRowid is it */
  int eTextEnc;           /* SQLITE_UTF8, SQLITE_UTF16LE or SQLITE_UTF16BE */
};

/*
** Columns of the SELECT that utf8ext_scan_sql() writes: the rowid (NULL
** when zRowid is), then the nPk key parts, then the columns it reads, in
** order from iFirst: column i of the table is UTF8EXT_SCAN_COL(t, i-iFirst).
*/
#define UTF8EXT_SCAN_ROWID 0
#define UTF8EXT_SCAN_KEY   1
#define UTF8EXT_SCAN_COL(t, i) (1 + (t)->nPk + (i))

/*
** The schema a call means, spelt as SQLite spells it, into *pzSchema:
** zSchemaArg when given (an error if no such schema); else, for a named
** table, the first schema that has it in SQL's own order (temp, main,
** then the attached ones); else main. Errors go to *pzErr.
*/
int utf8ext_resolve_schema(sqlite3 *db, const char *zTable,
                           const char *zSchemaArg, char **pzSchema,
                           char **pzErr);

/*
** Prepare *ppList: the rows (name, type, wr) of the tables to work on in
** zSchema, in name order. zTable NULL: every ordinary table, less SQLite's
** own, the repair log and the shadow tables of virtual tables (also when
** the module is not loaded: a table named after a virtual table and "_"
** counts as one). zTable given: that table, whatever its type, so the
** caller can say why it refuses a view. type is 'table', 'view',
** 'virtual' or 'shadow'; wr 1 for WITHOUT ROWID, 0 rowid, NULL unknown.
*/
int utf8ext_list_tables(sqlite3 *db, const char *zSchema, const char *zTable,
                        sqlite3_stmt **ppList, char **pzErr);

/*
** What utf8_repair(t, 'mojibake') writes for well-formed UTF-8 z[0..n) of
** column iCol of p, and what utf8_audit_summary counts as mojibake:
** utf8ext_unmojibake_buf(), but UTF-16 or UTF-32 that decodes to a number
** in a column of numeric affinity is left alone (0): the column would
** store the repair as a number, not as the text written.
*/
int utf8ext_moji_repair_of(const utf8ext_table *p, int iCol,
                           const unsigned char *z, sqlite3_int64 n,
                           unsigned char **paBuf, sqlite3_int64 *pnBuf,
                           sqlite3_int64 *pnOut);

/*
** For a WITHOUT ROWID table, the parts of its key as its index compares
** them (nPkPart, aiPkPart, azPkColl), which utf8ext_append_locator() uses:
** read only by those that find rows by key (repair and undo), not by the
** audit. SQLITE_OK at once for any other table, or when read already.
*/
int utf8ext_table_load_key(sqlite3 *db, utf8ext_table *p, char **pzErr);

/*
** Load the shape of table zName of zSchema; bWithoutRowid is 1, 0 or -1
** when unknown. *pp is freed with utf8ext_table_free().
*/
int utf8ext_table_load(sqlite3 *db, const char *zSchema, const char *zName,
                       int bWithoutRowid, utf8ext_table **pp, char **pzErr);
void utf8ext_table_free(utf8ext_table *p);

/*
** The SELECT that reads the whole table in its own order (NOT INDEXED):
** the columns UTF8EXT_SCAN_*, with the table's columns iFirst to
** iFirst+nRead-1. From sqlite3_mprintf(); NULL when out of memory.
*/
char *utf8ext_scan_sql(const utf8ext_table *p, int iFirst, int nRead);

/*
** Append "SELECT <rowid or NULL>, <key parts>" to s: the columns
** UTF8EXT_SCAN_ROWID and UTF8EXT_SCAN_KEY of every statement that reads p;
** the caller appends the columns it reads and the FROM clause.
*/
void utf8ext_append_select_head(sqlite3_str *s, const utf8ext_table *p);

/*
** How many of p's columns one SELECT can read beside its rowid and key
** (SQLITE_LIMIT_COLUMN caps a result row): p->nCol, except for a table
** of nearly 2000 columns, which is then read in passes of this many
** columns, each in the same order.
*/
int utf8ext_scan_width(sqlite3 *db, const utf8ext_table *p);

/*
** Append to s the WHERE clause that finds one row by value: "rowid=?N" by
** the true rowid when the table has one, otherwise "k1=?N AND k2=?N+1 ..."
** over the whole primary key. Returns the number of parameters it uses.
*/
int utf8ext_append_locator(sqlite3_str *s, const utf8ext_table *p, int iParam);

/* Append "tbl"."col" for column i of p. */
void utf8ext_append_column(sqlite3_str *s, const utf8ext_table *p, int i);

/*
** The row's key for people: the primary key as an SQL literal (a row value
** for a composite key), the rowid's when no key is declared, "NULL" when
** neither can be read. pRow is a scan statement on that row. From
** sqlite3_mprintf(); NULL when out of memory.
*/
char *utf8ext_scan_pk_literal(const utf8ext_table *p, sqlite3_stmt *pRow);

/* A copy of column iCol of pStmt as text; NULL when NULL or out of memory. */
char *utf8ext_column_dup(sqlite3_stmt *pStmt, int iCol);

#endif /* UTF8EXT_SCAN_H */
