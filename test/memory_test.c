/*
** test/memory_test.c - utf8_audit's memory does not grow with the number
** of ill-formed values.
**
** A child process builds a database file whose table t has N_ROWS rows,
** each with one ill-formed TEXT value (N_ROWS = 1,000,000). Another
** child, forked from a parent that has allocated nothing large, then
** resets its peak resident memory (writing "5" to /proc/self/clear_refs,
** so VmHWM restarts at the current VmRSS), opens the file and runs
**
**   1. SELECT count(*) FROM utf8_audit('t')
**   2. SELECT * FROM utf8_audit('t'), every row, every column read,
**      checking that rows come in scan order (rowid 1, 2, ...) and show
**      the error each row was given
**   3. SELECT * FROM utf8_audit_summary('t')
**
** and reports VmHWM minus the VmRSS it started from: it must stay under
** 64 MiB. utf8_audit kept every finding in memory before it moved them
** past a budget to a temporary database (about 167 bytes each: some
** 160 MiB here), so this test failed then.
**
** Under AddressSanitizer resident memory says nothing about the
** extension (shadow memory, quarantine), so the queries and their checks
** run on fewer rows and the memory figure is printed, not checked.
**
** The last line is "memory: N passed, N failed".
*/
#include <sqlite3.h>
#include "utf8ext.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#if defined(__has_feature)
# if __has_feature(address_sanitizer)
#  define MEMORY_TEST_ASAN 1
# endif
#endif
#if defined(__SANITIZE_ADDRESS__)
# define MEMORY_TEST_ASAN 1
#endif

#ifdef MEMORY_TEST_ASAN
# define N_ROWS 100000
#else
# define N_ROWS 1000000
#endif
#define LIMIT_KIB (64*1024L)

static int nPass, nFail;
static char zDb[512];

/* Record one check. */
static void check(int ok, const char *zName, const char *zDetail){
  if( ok ){
    nPass++;
  }else{
    nFail++;
    printf("%s FAILED%s%s\n", zName, zDetail ? ": " : "", zDetail ? zDetail : "");
  }
}

/* Seconds since some fixed point. */
static double now(void){
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec/1e9;
}

/* Field zField ("VmRSS:", "VmHWM:") of /proc/self/status in KiB; -1 if none. */
static long status_kib(const char *zField){
  char line[256];
  long v = -1;
  size_t n = strlen(zField);
  FILE *f = fopen("/proc/self/status", "r");
  if( f==0 ) return -1;
  while( fgets(line, sizeof(line), f) ){
    if( strncmp(line, zField, n)==0 ){ v = atol(line+n); break; }
  }
  fclose(f);
  return v;
}

/*
** Row i's value: 40 bytes of text with one overlong C0 at offset i%30,
** so that rows can be told apart in the audit's output.
*/
static void row_value(int i, unsigned char *z){
  memcpy(z, "an imported value, mostly fine: abcdefgh", 40);
  z[i%30] = 0xC0;
}

/* Child: build the database file. Exit status 0 on success. */
static int build_db(void){
  sqlite3 *db;
  sqlite3_stmt *pStmt = 0;
  unsigned char z[40];
  int i, rc;
  remove(zDb);
  rc = sqlite3_open(zDb, &db);
  if( rc==SQLITE_OK ){
    rc = sqlite3_exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
        " CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT); BEGIN", 0, 0, 0);
  }
  if( rc==SQLITE_OK ){
    rc = sqlite3_prepare_v2(db, "INSERT INTO t(id, v) VALUES(?1, ?2)", -1, &pStmt, 0);
  }
  for(i=1; rc==SQLITE_OK && i<=N_ROWS; i++){
    row_value(i, z);
    sqlite3_bind_int(pStmt, 1, i);
    sqlite3_bind_text(pStmt, 2, (const char*)z, 40, SQLITE_STATIC);
    rc = sqlite3_step(pStmt);
    rc = rc==SQLITE_DONE ? sqlite3_reset(pStmt) : rc;
  }
  sqlite3_finalize(pStmt);
  if( rc==SQLITE_OK ) rc = sqlite3_exec(db, "COMMIT", 0, 0, 0);
  if( rc!=SQLITE_OK ) printf("building %s: %s\n", zDb, sqlite3_errmsg(db));
  sqlite3_close(db);
  return rc!=SQLITE_OK;
}

/*
** Child: the three queries. Prints what it finds; exit status 0 if every
** check held, 1 if one did not, 2 if memory grew too much.
*/
static int run_audit(void){
  sqlite3 *db;
  sqlite3_stmt *pStmt = 0;
  long rss0, hwm;
  sqlite3_int64 n = 0, nBad = 0;
  double t0, t1, t2;
  int rc, bad = 0, reset;
  FILE *f = fopen("/proc/self/clear_refs", "w");

  reset = f && fputs("5", f)>=0;
  if( f && fclose(f)!=0 ) reset = 0;
  rss0 = status_kib("VmRSS:");

  t0 = now();
  rc = sqlite3_open_v2(zDb, &db, SQLITE_OPEN_READONLY, 0);
  if( rc==SQLITE_OK ){
    rc = sqlite3_prepare_v2(db, "SELECT count(*) FROM utf8_audit('t')", -1, &pStmt, 0);
  }
  if( rc==SQLITE_OK && sqlite3_step(pStmt)==SQLITE_ROW ) n = sqlite3_column_int64(pStmt, 0);
  sqlite3_finalize(pStmt);
  pStmt = 0;
  if( n!=N_ROWS ){
    printf("count(*): %lld rows, expected %d: %s\n", n, N_ROWS, sqlite3_errmsg(db));
    bad = 1;
  }

  t1 = now();
  n = 0;
  rc = sqlite3_prepare_v2(db, "SELECT * FROM utf8_audit('t')", -1, &pStmt, 0);
  while( rc==SQLITE_OK && (rc = sqlite3_step(pStmt))==SQLITE_ROW ){
    int k, nCol = sqlite3_column_count(pStmt);
    rc = SQLITE_OK;
    n++;
    for(k=0; k<nCol; k++){
      if( sqlite3_column_type(pStmt, k)==SQLITE_BLOB ){
        sqlite3_column_blob(pStmt, k);
      }else{
        sqlite3_column_text(pStmt, k);
      }
      sqlite3_column_bytes(pStmt, k);
    }
    /* rowid (column 2) in scan order; offset (4) where row_value put it */
    if( sqlite3_column_int64(pStmt, 2)!=n || sqlite3_column_int64(pStmt, 4)!=n%30
     || strcmp((const char*)sqlite3_column_text(pStmt, 5), "overlong")!=0 ){
      if( nBad++<3 ){
        printf("row %lld: rowid %lld offset %lld error %s\n", n,
               sqlite3_column_int64(pStmt, 2), sqlite3_column_int64(pStmt, 4),
               sqlite3_column_text(pStmt, 5));
      }
    }
  }
  if( rc!=SQLITE_DONE || n!=N_ROWS || nBad ){
    printf("SELECT *: rc=%d, %lld rows (expected %d), %lld out of place: %s\n",
           rc, n, N_ROWS, nBad, sqlite3_errmsg(db));
    bad = 1;
  }
  sqlite3_finalize(pStmt);
  pStmt = 0;

  t2 = now();
  rc = sqlite3_prepare_v2(db, "SELECT col, checked, bad, first_pk FROM utf8_audit_summary('t')"
                              " WHERE col='v'", -1, &pStmt, 0);
  if( rc!=SQLITE_OK || sqlite3_step(pStmt)!=SQLITE_ROW
   || sqlite3_column_int64(pStmt, 1)!=N_ROWS || sqlite3_column_int64(pStmt, 2)!=N_ROWS
   || strcmp((const char*)sqlite3_column_text(pStmt, 3), "1")!=0 ){
    printf("utf8_audit_summary: not %d checked and bad: %s\n", N_ROWS, sqlite3_errmsg(db));
    bad = 1;
  }
  sqlite3_finalize(pStmt);
  sqlite3_close(db);
  hwm = status_kib("VmHWM:");

  printf("%d ill-formed values: count(*) in %.2f s, all rows and columns in %.2f s,"
         " summary in %.2f s\n", N_ROWS, t1-t0, t2-t1, now()-t2);
  printf("peak RSS %ld KiB, from %ld KiB: +%ld KiB (limit +%ld KiB)%s\n", hwm, rss0,
         hwm-rss0, LIMIT_KIB, reset ? "" : " (clear_refs not writable: peak since fork)");
  fflush(stdout);
  if( bad ) return 1;
#ifdef MEMORY_TEST_ASAN
  printf("AddressSanitizer: the figure above is not checked\n");
  return 0;
#else
  if( rss0<0 || hwm<0 ){
    printf("no VmRSS/VmHWM in /proc/self/status\n");
    return 1;
  }
  return hwm-rss0 < LIMIT_KIB ? 0 : 2;
#endif
}

/* Run fn in a child process; its exit status, or -1. */
static int in_child(int (*fn)(void)){
  int status = 0;
  pid_t pid;
  fflush(stdout);
  pid = fork();
  if( pid==0 ){
    /* exit(), not _exit(): under AddressSanitizer its leak check runs at
    ** exit, and a leak makes the status non-zero (stdout was flushed
    ** before the fork, so nothing is printed twice) */
    exit(fn());
  }
  if( pid<0 || waitpid(pid, &status, 0)<0 || !WIFEXITED(status) ) return -1;
  return WEXITSTATUS(status);
}

int main(void){
  const char *zTmp = getenv("TMPDIR");
  double t0 = now();
  int r;
  sqlite3_auto_extension((void(*)(void))sqlite3_utf8ext_init);
  snprintf(zDb, sizeof(zDb), "%s/utf8ext-memory-test-%d.db",
           zTmp && zTmp[0] ? zTmp : "/tmp", (int)getpid());

  r = in_child(build_db);
  check(r==0, "build", zDb);
  printf("%d rows written in %.2f s\n", N_ROWS, now()-t0);
  if( r==0 ){
    r = in_child(run_audit);
    check(r==0 || r==2, "audit", "wrong answer (above)");
    check(r==0 || r==1, "audit-rss", "peak RSS grew by 64 MiB or more");
  }
  remove(zDb);
  printf("memory: %d passed, %d failed\n", nPass, nFail);
  return nFail>0;
}
