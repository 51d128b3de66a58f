/*
** utf8ext_job.h - what utf8_repair (utf8ext_repair.c) and utf8_undo
** (utf8ext_undo.c) share: one call's job, its transaction, the repair log,
** the key and fingerprint that find a row again, and the refusals both
** make (utf8ext_job.c). utf8_guard and utf8_unguard (utf8ext_guard.c) use
** only the transaction: a job without a log (utf8ext_job_begin_nolog).
** Only these units include it.
*/
#ifndef UTF8EXT_JOB_H
#define UTF8EXT_JOB_H

#include "utf8ext_scan.h"
#include "guess.h"

/* How the job's transaction was opened (repair_job.eTxn). */
#define JOB_TXN_NONE       0  /* not yet, or already ended */
#define JOB_TXN_OWN        1  /* BEGIN IMMEDIATE: the call was in autocommit */
#define JOB_TXN_SAVEPOINT  2  /* SAVEPOINT inside the user's transaction */

/* How a failed call ended (repair_job.eEnd): what its message may say. */
#define JOB_END_CLEAN      0  /* rolled back: everything as before the call */
#define JOB_END_TXN_LOST   1  /* SQLite rolled back the user's whole transaction */
#define JOB_END_STUCK      2  /* could not roll back: partial changes remain */

/*
** The UPDATE and the read-back of one set of columns, kept while the job
** works on one table: rows with the same bad columns reuse them.
*/
#define JOB_STMT_CACHE 8
typedef struct job_stmts job_stmts;
struct job_stmts {
  int *aiCol;                 /* The columns, ascending; NULL: unused */
  int nCol;                   /* Entries in aiCol */
  sqlite3_stmt *pUpdate;      /* UPDATE OR ABORT ... SET them ... by locator */
  sqlite3_stmt *pRead;        /* SELECT head, them ... by locator */
  unsigned iUsed;             /* When last used, for eviction */
};

/*
** What one call of utf8_repair or utf8_undo (or, for its transaction
** only, utf8_guard or utf8_unguard) is doing.
*/
typedef struct repair_job repair_job;
struct repair_job {
  sqlite3 *db;                /* The connection */
  const char *zFunc;          /* "utf8_repair", "utf8_undo", "utf8_guard"... */
  char *zSchema;              /* The schema worked on */
  char *zErr;                 /* Why it failed, without the function's name */
  /* the method (repair only) */
  utf8_recode_enc enc;        /* The method, when bFix and bMoji are 0 */
  int bFix;                   /* True for the 'fix' method */
  int bMoji;                  /* True for the 'mojibake' method */
  int bWhole;                 /* 'cp1252-whole', 'latin1-whole', a legacy
                              ** charset's name + '-whole': every byte */
  int iCharset;               /* A legacy charset (core/charsets.h), or -1 */
  char *zMethodBuf;           /* zMethod when it is made: "<charset>-whole" */
  unsigned char *aMoji;       /* bMoji: scratch for utf8_unmojibake() */
  sqlite3_int64 nMoji;        /* Its size */
  const char *zMethod;        /* The method's name, as the log keeps it */
  int bAuto;                  /* 'auto': each value as its column's guess
                              ** says, or its own (utf8ext_repair.c) */
  char *azAuto[UTF8_GUESS_N]; /* 'auto': the log's method per guess:
                              ** "auto:<charset>-whole", "auto:fix" */
  const char *zValueMethod;   /* The method of the value repaired last */
  const char *zColumns;       /* COLUMNS: the columns to repair; NULL: all */
  const char *zWhere;         /* WHERE: the rows to repair; NULL: all */
  /* progress */
  sqlite3_int64 nChanged;     /* Values changed (or restored) so far; what
                              ** utf8ext_job_result() reports */
  /* the log */
  int bLog;                   /* True once the log exists in the job */
  sqlite3_stmt *pLogCreate;   /* CREATE TABLE of the log, when it was absent */
  sqlite3_stmt *pLogInsert;   /* INSERT INTO the log */
  sqlite3_int64 iNextId;      /* The id of this run's next log row */
  char *zAt;                  /* The run's time, every log row's at */
  /* the transaction */
  sqlite3_stmt *pLock;        /* DELETE FROM the log WHERE 0: takes the lock */
  sqlite3_stmt *pRescue;      /* A long write that changes nothing (job_rollback) */
  int bNoLog;                 /* A job without a log (utf8ext_job_begin_nolog) */
  char *zRescue;              /* bNoLog: the rescue's SQL; NULL: none */
  int bRescueStale;           /* bNoLog: pRescue could not be prepared again
                              ** after the last change of the schema */
  int eTxn;                   /* JOB_TXN_* */
  char zSavepoint[48];        /* The savepoint's name, this call's own */
  int bAutocommit;            /* True if no transaction was open before */
  int bForeignKeys;           /* PRAGMA foreign_keys was on */
  int nDeferredBefore;        /* SQLITE_DBSTATUS_DEFERRED_FKS before (0, 1) */
  sqlite3_uint64 *aFkBefore;  /* When nDeferredBefore: the violations
                              ** PRAGMA foreign_key_check saw before,
                              ** hashed and sorted (utf8ext_job.c) */
  sqlite3_int64 nFkBefore;    /* Entries in aFkBefore */
  int eEnd;                   /* JOB_END_*, once a failed call has ended */
  /* the table at hand */
  sqlite3_stmt **apFp;        /* Reads a row for its fingerprint, by pass */
  int nFp;                    /* Entries in apFp; 0: rows need none */
  job_stmts aStmt[JOB_STMT_CACHE]; /* UPDATE and read-back by column set */
  unsigned char *aColOn;      /* Per column: repaired (COLUMNS); NULL: all */
  utf8_guess_group *aGroup;   /* 'auto': per column, the evidence of the
                              ** bad values it repairs, read before any is */
  unsigned iTick;             /* Uses of aStmt so far */
};

/* ---- errors ---------------------------------------------------------- */

/* Set pJob->zErr from a printf format (a first message is kept). */
int utf8ext_job_error(repair_job *pJob, int rc, const char *zFormat, ...);
/* Set pJob->zErr to the connection's message for rc. */
int utf8ext_job_sql_error(repair_job *pJob, int rc);
/* utf8ext_job_error() with "table "t", column "c", row <key>: " before it; iCol<0
** leaves out the column, zPk NULL the row. */
int utf8ext_job_error_at(repair_job *pJob, int rc, const utf8ext_table *p,
                         int iCol,
               const char *zPk, const char *zFormat, ...);

/* ---- statements ------------------------------------------------------- */

/* Prepare zSql (from sqlite3_mprintf, freed here). */
int utf8ext_job_prepare(repair_job *pJob, char *zSql, sqlite3_stmt **pp);
/* Run one statement of SQL that returns no rows (or rows to ignore). */
int utf8ext_job_exec(repair_job *pJob, const char *zSql);
/*
** Step a statement that writes to its end: SQLITE_DONE, never SQLITE_ROW
** (PRAGMA count_changes makes an UPDATE return a row). Returns SQLITE_OK
** or the error code; the statement is reset either way.
*/
int utf8ext_job_step_write(sqlite3_stmt *pStmt);

/*
** "UPDATE OR ABORT t SET c1=?1, ... WHERE <locator from ?n+1>" for the
** columns aiCol[0..n).
*/
int utf8ext_job_prepare_update(repair_job *pJob, const utf8ext_table *p,
                       const int *aiCol, int n, sqlite3_stmt **pp);
/*
** "SELECT rowid, key parts, c1, ... FROM t WHERE <locator>" for the
** columns aiCol[0..n): column aiCol[i] is result column UTF8EXT_SCAN_COL(p, i).
*/
int utf8ext_job_prepare_read(repair_job *pJob, const utf8ext_table *p,
                     const int *aiCol, int n, sqlite3_stmt **pp);
/*
** The UPDATE and the read-back (as above) of the columns aiCol[0..n) of
** p, from the job's cache or prepared; utf8ext_job_statements_clear() finalizes
** them all (when the job moves to another table, and at its end).
*/
int utf8ext_job_statements(repair_job *pJob, const utf8ext_table *p,
                           const int *aiCol,
                   int n, sqlite3_stmt **ppUpdate, sqlite3_stmt **ppRead);
void utf8ext_job_statements_clear(repair_job *pJob);
/* Step pRead (bound to a locator) to its one row, else an error on zPk. */
int utf8ext_job_read_one_row(repair_job *pJob, const utf8ext_table *p,
                     sqlite3_stmt *pRead, const char *zPk);
/* True if column iCol of pRow stores exactly z[0..n) as TEXT. */
int utf8ext_job_stored_equals(sqlite3_stmt *pRow, int iCol, int eTextEnc,
                      const void *z, sqlite3_int64 n);
/* Copy z[0..n) into a new buffer (at least one byte, so never NULL). */
unsigned char *utf8ext_job_copy_bytes(const void *z, sqlite3_int64 n);

/* ---- the call: begin, end, result ------------------------------------ */

/*
** Start the job on pJob->zSchema: refuse a call from inside a statement
** that writes and a journal that cannot roll back, open the transaction
** (BEGIN IMMEDIATE in autocommit, so busy_timeout applies; else a
** savepoint), take the write lock and make sure the log exists (bCreateLog;
** else *pbNoLog is set when there is none and nothing needs doing).
*/
int utf8ext_job_begin(repair_job *pJob, int bCreateLog, int *pbNoLog);
/*
** Start a job that keeps no log and changes the schema (utf8_guard,
** utf8_unguard): refuse a call from inside a statement that writes,
** prepare the rescue from zRescue (from sqlite3_mprintf, taken: freed by
** utf8ext_job_result(); NULL: the job has none), open the transaction as
** utf8ext_job_begin() does and refuse journal_mode=OFF. Such a job commits
** whenever it ends with SQLITE_OK, whatever nChanged says, and checks no
** foreign keys. After each change of the schema the caller must call
** utf8ext_job_renew_rescue().
*/
int utf8ext_job_begin_nolog(repair_job *pJob, char *zRescue);
/*
** Prepare a no-log job's rescue again, after a change of the schema (also
** one that reported an error: it may have run). A change of the temp
** schema expires every prepared statement, and under sqlite3_interrupt()
** an expired one cannot be prepared again; so when this fails the old
** rescue is kept but marked stale, and a rescue that cannot start then
** proves nothing about ROLLBACK TO (utf8ext_job.c).
*/
void utf8ext_job_renew_rescue(repair_job *pJob);
/*
** End the job: with rc SQLITE_OK and values changed, check deferred
** foreign keys, then COMMIT or RELEASE; otherwise (or if that fails) roll
** everything back. Returns the outcome's code.
*/
int utf8ext_job_end(repair_job *pJob, int rc);
/*
** Report the outcome on ctx: the count, or the error with the function's
** name and what became of the database. Frees the job's strings.
*/
void utf8ext_job_result(sqlite3_context *ctx, repair_job *pJob, int rc);
/* The text of name argument v (TABLE or SCHEMA) into *pz, NULL for NULL. */
int utf8ext_job_name_arg(repair_job *pJob, sqlite3_value *v, const char *zArg,
                 const char **pz);

/* ---- the log ----------------------------------------------------------- */

/* 1 if the log exists in the job's schema, 0 if not; a lookalike is an error. */
int utf8ext_log_exists(repair_job *pJob, int *pbExists);
/* Prepare the log's INSERT and this run's ids and time. */
int utf8ext_log_open(repair_job *pJob);

/* ---- keys and fingerprints ------------------------------------------------ */

/* Key part types in the log's key column. */
#define KEY_NULL  'N'
#define KEY_INT   'I'
#define KEY_FLOAT 'F'
#define KEY_TEXT  'T'
#define KEY_BLOB  'B'

/* Append the value v as one key part (see THE LOG in utf8ext_repair.c). */
void utf8ext_key_append(sqlite3_str *s, sqlite3_value *v, int eTextEnc);
/*
** Bind the nPart key parts encoded in z[0..n) to pStmt from parameter
** iParam on. SQLITE_CORRUPT when the encoding is not one utf8_repair wrote.
*/
int utf8ext_key_bind(sqlite3_stmt *pStmt, int iParam, const unsigned char *z,
             sqlite3_int64 n, int nPart, int eTextEnc);

/* Bytes of a fingerprint as the log keeps it: the hash, then the number of
** the table's columns it covers (4 bytes, most significant first). */
#define FP_HASH_BYTES 16
#define FP_BYTES      20

/* Prepare the fingerprint reads for p (none when its rowid is stable). */
int utf8ext_fp_open(repair_job *pJob, const utf8ext_table *p);
void utf8ext_fp_close(repair_job *pJob);
/*
** The fingerprint of the row of p with rowid iRowid over its first nCol
** columns (as many as the table had when the log row was written) into
** out[FP_HASH_BYTES].
*/
int utf8ext_row_fingerprint(repair_job *pJob, const utf8ext_table *p,
                    sqlite3_int64 iRowid, int nCol, unsigned char *out);

/* ---- refusals ---------------------------------------------------------- */

/* Refuse a table with a trigger that fires on UPDATE. */
int utf8ext_refuse_update_triggers(repair_job *pJob, const utf8ext_table *p);
/*
** With foreign keys on, *pazWhy (p->nCol entries, NULL each where there is
** nothing to say; the array itself NULL when foreign keys are off) gets,
** for each column that another table references with ON UPDATE CASCADE,
** SET NULL or SET DEFAULT, why a change of it is refused: undo could not
** bring the child back. Read once per table; freed by utf8ext_fk_free().
*/
int utf8ext_fk_update_actions(repair_job *pJob, const utf8ext_table *p,
                      char ***pazWhy);
void utf8ext_fk_free(char **azWhy, int nCol);
/* Refuse a table whose rows cannot be found again by value. */
int utf8ext_refuse_unlocatable(repair_job *pJob, const utf8ext_table *p);

#endif /* UTF8EXT_JOB_H */
