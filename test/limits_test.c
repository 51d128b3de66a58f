/*
** test/limits_test.c - sizes: SQLITE_LIMIT_LENGTH, large values, and the
** memory the table-valued functions use.
**
** Always (make test):
**   1. With SQLITE_LIMIT_LENGTH lowered to 1000, every result that would
**      pass it (utf8_fix with each rule and a long R, utf8_recode with
**      each encoding, a valid prefix plus growing units, utf8_encode) is
**      the error SQLite calls "string or blob too big" (SQLITE_TOOBIG),
**      and the largest that fits is returned whole.
**   1b. With SQLITE_LIMIT_LENGTH at 50 (and lower), every error message
**      of the scalar functions still names the function: cut to fit
**      under the limit at a character boundary, never empty.
**   2. A 16 MiB value, mostly valid with an error every 64 KiB, is
**      validated, measured and repaired; the repair is checked.
**
** With --big (make test-big):
**   3. A 512 MiB value the same way; and its repair with the 'byte' rule
**      and a 4-byte R, which would be 2 GiB: SQLITE_TOOBIG before any
**      allocation (size arithmetic past 2^31 in size_t).
**   4. Peak resident memory (getrusage of a child process per step) of
**      utf8_codepoints over a 10 MB and a 100 MB value, and of utf8_audit
**      over a 100 MB table in a database file, each next to a baseline
**      step that reads the same data without the extension's function.
**
** The last line is "limits: N passed, N failed".
*/
#include <sqlite3.h>
#include "utf8ext.h"
#include "utf8.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static int nPass, nFail;

/*
** Record one check.
*/
static void check(int ok, const char *zName, const char *zDetail){
  if( ok ){
    nPass++;
  }else{
    nFail++;
    printf("%s FAILED%s%s\n", zName, zDetail ? ": " : "", zDetail ? zDetail : "");
  }
}

/* Seconds since some fixed point, for timings. */
static double now(void){
  struct timespec ts;
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return ts.tv_sec + ts.tv_nsec/1e9;
}

/*
** Run zSql with ?1 bound to the blob z[0..n) (as TEXT when asText) and
** ?2 to the text zR (when not NULL). Returns the result code of the
** first step; on SQLITE_ROW, *pLen gets the byte length of column 0 and
** *pValid whether it is well-formed UTF-8.
*/
static int run(sqlite3 *db, const char *zSql, const unsigned char *z,
               sqlite3_int64 n, int asText, const char *zR,
               sqlite3_int64 *pLen, int *pValid){
  sqlite3_stmt *pStmt = 0;
  int rc = sqlite3_prepare_v2(db, zSql, -1, &pStmt, 0);
  if( rc!=SQLITE_OK ){
    printf("prepare: %s: %s\n", zSql, sqlite3_errmsg(db));
    return rc;
  }
  if( z ){
    if( asText ){
      sqlite3_bind_text64(pStmt, 1, (const char*)z, (sqlite3_uint64)n, SQLITE_STATIC, SQLITE_UTF8);
    }else{
      sqlite3_bind_blob64(pStmt, 1, z, (sqlite3_uint64)n, SQLITE_STATIC);
    }
  }
  if( zR ) sqlite3_bind_text(pStmt, 2, zR, -1, SQLITE_STATIC);
  rc = sqlite3_step(pStmt);
  if( rc==SQLITE_ROW ){
    const unsigned char *zOut = sqlite3_column_type(pStmt, 0)==SQLITE_BLOB
        ? sqlite3_column_blob(pStmt, 0) : sqlite3_column_text(pStmt, 0);
    sqlite3_int64 len = sqlite3_column_bytes(pStmt, 0);
    if( pLen ) *pLen = len;
    if( pValid ) *pValid = zOut ? utf8_is_valid(zOut, (size_t)len) : 1;
  }else{
    rc = sqlite3_finalize(pStmt);
    pStmt = 0;
  }
  sqlite3_finalize(pStmt);
  return rc;
}

/*
** Expect zSql on the value to be SQLITE_TOOBIG with SQLite's message.
*/
static void expect_toobig(sqlite3 *db, const char *zName, const char *zSql,
                          const unsigned char *z, sqlite3_int64 n, const char *zR){
  int rc = run(db, zSql, z, n, 0, zR, 0, 0);
  char zDetail[200];
  snprintf(zDetail, sizeof(zDetail), "rc=%d: %s", rc, sqlite3_errmsg(db));
  check(rc==SQLITE_TOOBIG && strcmp(sqlite3_errmsg(db), "string or blob too big")==0,
        zName, zDetail);
}

/*
** Expect zSql on the value to give a well-formed TEXT of nWant bytes.
*/
static void expect_len(sqlite3 *db, const char *zName, const char *zSql,
                       const unsigned char *z, sqlite3_int64 n, const char *zR,
                       sqlite3_int64 nWant){
  sqlite3_int64 len = -1;
  int valid = 0;
  int rc = run(db, zSql, z, n, 0, zR, &len, &valid);
  char zDetail[200];
  snprintf(zDetail, sizeof(zDetail), "rc=%d len=%lld (want %lld) valid=%d: %s",
           rc, len, nWant, valid, sqlite3_errmsg(db));
  check(rc==SQLITE_ROW && len==nWant && valid, zName, zDetail);
}

/* n copies of byte b followed by nothing (malloc). */
static unsigned char *bytes_of(int b, size_t n){
  unsigned char *p = malloc(n ? n : 1);
  if( p==0 ){ printf("out of memory\n"); exit(1); }
  memset(p, b, n);
  return p;
}

/*
** 1. SQLITE_LIMIT_LENGTH at 1000.
*/
static void test_length_limit(sqlite3 *db){
  unsigned char *c0 = bytes_of(0xC0, 1000), *ff = bytes_of(0xFF, 1000);
  unsigned char *x80 = bytes_of(0x80, 1000), *mix = bytes_of('a', 1000);
  char zLongR[201];
  char zSql[127*9 + 64];
  int i;
  memset(zLongR, 'r', 200); zLongR[200] = 0;
  memset(mix+900, 0xC0, 50);
  sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 1000);

  expect_toobig(db, "fix-1", "SELECT utf8_fix(?1)", c0, 334, 0);        /* 1002 */
  expect_len(db, "fix-2", "SELECT utf8_fix(?1)", c0, 333, 0, 999);
  expect_toobig(db, "fix-3", "SELECT utf8_fix(?1, ?2)", c0, 6, zLongR); /* 1200 */
  expect_len(db, "fix-3b", "SELECT utf8_fix(?1, ?2)", c0, 5, zLongR, 1000);
  expect_len(db, "fix-4", "SELECT utf8_fix(?1, ?2, 'run')", c0, 900, zLongR, 200);
  expect_toobig(db, "fix-5", "SELECT utf8_fix(?1, ?2, 'byte')", ff, 6, zLongR);
  expect_len(db, "fix-6", "SELECT utf8_fix(?1, '', 'byte')", ff, 1000, 0, 0);
  /* 900 valid bytes, then 50 units growing to 150: 1050. */
  expect_toobig(db, "fix-7", "SELECT utf8_fix(?1)", mix, 950, 0);
  expect_len(db, "fix-8", "SELECT utf8_fix(?1)", mix, 933, 0, 999);
  expect_toobig(db, "recode-1", "SELECT utf8_recode(?1, 'latin1')", ff, 501, 0);
  expect_len(db, "recode-2", "SELECT utf8_recode(?1, 'latin1')", ff, 500, 0, 1000);
  expect_toobig(db, "recode-3", "SELECT utf8_recode(?1, 'cp1252')", x80, 334, 0);
  expect_len(db, "recode-4", "SELECT utf8_recode(?1, 'cp1252')", x80, 333, 0, 999);
  expect_toobig(db, "recode-5", "SELECT utf8_recode(?1, 'cesu8')", ff, 334, 0);
  expect_toobig(db, "recode-6", "SELECT utf8_recode(?1, 'mutf8')", c0, 334, 0);
  expect_toobig(db, "recode-7", "SELECT utf8_recode(?1, 'cp1252')", mix, 951, 0);
  expect_len(db, "recode-8", "SELECT utf8_recode(?1, 'cp1252')", mix, 950, 0, 1000);
  /* A valid value of exactly the limit comes back whole. */
  expect_len(db, "fix-valid", "SELECT utf8_fix(?1)", mix, 900, 0, 900);
  expect_len(db, "check-valid", "SELECT utf8_check(?1)", mix, 900, 0, 900);

  /* utf8_encode: 127 arguments of 4 bytes each (508 bytes), then 25
  ** (100), against a limit of 100; prepared first, as the SQL is longer. */
  for(i=0; i<2; i++){
    int nArg = i==0 ? 127 : 25, k, rc;
    sqlite3_stmt *pStmt = 0;
    strcpy(zSql, "SELECT utf8_encode(");
    for(k=0; k<nArg; k++) strcat(zSql, k ? ",128512" : "128512");
    strcat(zSql, ")");
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 1000);
    sqlite3_prepare_v2(db, zSql, -1, &pStmt, 0);
    sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 100);
    rc = sqlite3_step(pStmt);
    if( i==0 ){
      check(rc==SQLITE_TOOBIG || (sqlite3_reset(pStmt)==SQLITE_TOOBIG),
            "encode-toobig", sqlite3_errmsg(db));
    }else{
      check(rc==SQLITE_ROW && sqlite3_column_bytes(pStmt, 0)==100,
            "encode-fits", sqlite3_errmsg(db));
    }
    sqlite3_finalize(pStmt);
  }
  sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 1000000000);
  free(c0); free(ff); free(x80); free(mix);
}

/*
** 2026-11-28 (1b): error messages under a low SQLITE_LIMIT_LENGTH. SQLite
** drops a function's error message longer than the limit (the statement
** fails with no text, or with "string or blob too big"); the extension
** cuts its messages to fit, so each still starts with the function's
** name, is well-formed UTF-8 and is shorter than the limit.
*/
static void expect_short_error(sqlite3 *db, int iLimit, const char *zName,
                               const char *zSql, const char *zFunc){
  sqlite3_stmt *pStmt = 0;
  const char *zErr;
  char zDetail[300];
  int rc, ok;
  sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 1000000);
  rc = sqlite3_prepare_v2(db, zSql, -1, &pStmt, 0);
  sqlite3_limit(db, SQLITE_LIMIT_LENGTH, iLimit);
  if( rc==SQLITE_OK ){
    rc = sqlite3_step(pStmt);
    if( rc!=SQLITE_ROW ) rc = sqlite3_reset(pStmt);
  }
  zErr = sqlite3_errmsg(db);
  ok = rc==SQLITE_ERROR
    && strncmp(zErr, zFunc, strlen(zFunc))==0
    && (int)strlen(zErr) < iLimit
    && utf8_is_valid((const unsigned char*)zErr, strlen(zErr));
  snprintf(zDetail, sizeof(zDetail), "limit %d, rc=%d: [%s]", iLimit, rc, zErr);
  check(ok, zName, zDetail);
  sqlite3_finalize(pStmt);
  sqlite3_limit(db, SQLITE_LIMIT_LENGTH, 1000000000);
}

static void test_error_limit(sqlite3 *db){
  static const int aLimit[] = { 50, 40, 23, 20 };
  static const struct { const char *zName, *zSql, *zFunc; } aCase[] = {
    { "err-fix-r",     "SELECT utf8_fix(x'C0', x'FF')", "utf8_fix" },
    { "err-fix-rule",  "SELECT utf8_fix('a', 'x', 'nosuchrule')", "utf8_fix" },
    { "err-fix-nul",   "SELECT utf8_fix('a', 'x', 'run'||char(0))", "utf8_fix" },
    /* the echoed rule ends in two-byte characters: the cut must not
    ** split one, whatever the limit */
    { "err-fix-utf8",  "SELECT utf8_fix('a', 'x', 'r\xC3\xA9\xC3\xA9\xC3\xA9"
                       "\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9\xC3\xA9')", "utf8_fix" },
    { "err-recode",    "SELECT utf8_recode('a', 'nosuchencoding')", "utf8_recode" },
    { "err-recode-opt","SELECT utf8_recode('a', 'latin1', 'nosuchoption')", "utf8_recode" },
    { "err-recode-whole","SELECT utf8_recode('a', 'cesu8', 'whole')", "utf8_recode" },
    { "err-check",     "SELECT utf8_check(x'41424344C0')", "utf8_check" },
    { "err-encode-neg","SELECT utf8_encode(-123456789012345)", "utf8_encode" },
    { "err-encode-str","SELECT utf8_encode('abc')", "utf8_encode" },
    { "err-encode-sur","SELECT utf8_encode(55296)", "utf8_encode" },
  };
  /* repair and undo run queries of their own, which need text longer
  ** than 23 bytes (the log's column list): below 40, SQLite stops them
  ** with its own "string or blob too big", which is not empty either */
  static const struct { const char *zName, *zSql, *zFunc; } aJob[] = {
    { "err-repair",    "SELECT utf8_repair('no_such_table_of_a_long_name')", "utf8_repair" },
    { "err-undo",      "SELECT utf8_undo('t', 'no_such_schema_of_a_long_name')", "utf8_undo" },
  };
  char zName[64];
  size_t i, k;
  for(k=0; k<sizeof(aLimit)/sizeof(aLimit[0]); k++){
    for(i=0; i<sizeof(aCase)/sizeof(aCase[0]); i++){
      snprintf(zName, sizeof(zName), "%s-%d", aCase[i].zName, aLimit[k]);
      expect_short_error(db, aLimit[k], zName, aCase[i].zSql, aCase[i].zFunc);
    }
  }
  for(k=0; k<2; k++){
    for(i=0; i<sizeof(aJob)/sizeof(aJob[0]); i++){
      snprintf(zName, sizeof(zName), "%s-%d", aJob[i].zName, aLimit[k]);
      expect_short_error(db, aLimit[k], zName, aJob[i].zSql, aJob[i].zFunc);
    }
  }
  /* a table-valued function's message: SQLite cannot declare one below a
  ** limit of about 210 bytes, so a long name makes the message too long */
  expect_short_error(db, 300, "err-audit-300", "SELECT * FROM utf8_audit('"
      "a_table_whose_name_is_longer_than_the_limit_xxxxxxxxxxxxxxxxxxxxxxxxxxx"
      "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
      "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
      "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx')",
      "utf8_audit");
}

/*
** A value of n bytes: "héllo wörld " repeated, with an overlong C0
** replacing a byte every `every` bytes (never inside a character).
*/
static unsigned char *make_value(size_t n, size_t every, size_t *pErrors){
  static const char pattern[] = "h\xC3\xA9llo w\xC3\xB6rld ";   /* 14 bytes */
  unsigned char *p = malloc(n);
  size_t i, errors = 0;
  if( p==0 ){ printf("out of memory for %zu bytes\n", n); exit(1); }
  for(i=0; i<n; i++) p[i] = (unsigned char)pattern[i % 14];
  for(i=every; every && i<n; i+=every){
    while( i<n && (p[i] & 0x80) ) i++;   /* an ASCII byte: a whole character */
    if( i<n ){ p[i] = 0xC0; errors++; }
  }
  /* The end must not cut a character. */
  while( n>0 && (p[n-1] & 0xC0)==0x80 ) p[--n] = ' ';
  if( n>0 && p[n-1]>=0xC2 ) p[n-1] = ' ';
  *pErrors = errors;
  return p;
}

/*
** 2 and 3: validate, measure and repair a value of n bytes.
*/
static void test_large_value(sqlite3 *db, size_t n, const char *zName){
  size_t errors;
  unsigned char *z = make_value(n, 65536, &errors);
  sqlite3_int64 len = 0;
  int valid = 0, rc;
  double t0 = now();
  char zTest[64], zDetail[160];
  sqlite3_stmt *pStmt;

  sqlite3_prepare_v2(db, "SELECT utf8_valid(?1), utf8_error_offset(?1),"
                         " utf8_length(?1)", -1, &pStmt, 0);
  sqlite3_bind_blob64(pStmt, 1, z, n, SQLITE_STATIC);
  rc = sqlite3_step(pStmt);
  snprintf(zTest, sizeof(zTest), "%s-validate", zName);
  snprintf(zDetail, sizeof(zDetail), "rc=%d valid=%d offset=%lld", rc,
           sqlite3_column_int(pStmt, 0), sqlite3_column_int64(pStmt, 1));
  check(rc==SQLITE_ROW && sqlite3_column_int(pStmt, 0)==0
        && sqlite3_column_int64(pStmt, 1)>=65536
        && (size_t)sqlite3_column_int64(pStmt, 2)==utf8_count_units(z, n),
        zTest, zDetail);
  sqlite3_finalize(pStmt);
  printf("%s: %zu bytes, %zu errors: validated, offset and length in %.2f s\n",
         zName, n, errors, now()-t0);

  t0 = now();
  rc = run(db, "SELECT utf8_fix(?1)", z, (sqlite3_int64)n, 0, 0, &len, &valid);
  snprintf(zTest, sizeof(zTest), "%s-fix", zName);
  snprintf(zDetail, sizeof(zDetail), "rc=%d len=%lld valid=%d", rc, len, valid);
  check(rc==SQLITE_ROW && valid && (size_t)len==n + 2*errors, zTest, zDetail);
  printf("%s: repaired (%lld bytes, well-formed) in %.2f s\n", zName, len, now()-t0);

  if( n>=((size_t)1<<29) ){
    /* 'byte' rule with a 4-byte R on a value of bad bytes: 4n > 2^31. */
    memset(z, 0xFF, n);
    t0 = now();
    snprintf(zTest, sizeof(zTest), "%s-fix-2GiB", zName);
    expect_toobig(db, zTest, "SELECT utf8_fix(?1, ?2, 'byte')", z,
                  (sqlite3_int64)n, "\xF0\x9F\x98\x80");
    snprintf(zTest, sizeof(zTest), "%s-recode-1GiB", zName);
    expect_toobig(db, zTest, "SELECT utf8_recode(?1, 'latin1')", z,
                  (sqlite3_int64)n, 0);
    printf("%s: 2 GiB and 1 GiB results refused in %.2f s\n", zName, now()-t0);
  }
  free(z);
}

/*
** Run step(zArg) in a child process and return its peak RSS in KiB
** (getrusage of the child through wait4), or -1 if it failed.
*/
static long child_peak_kib(void (*step)(const char*), const char *zArg){
  struct rusage ru;
  int status = 0;
  pid_t pid;
  fflush(stdout);
  pid = fork();
  if( pid==0 ){
    step(zArg);
    _exit(0);
  }
  if( pid<0 || wait4(pid, &status, 0, &ru)<0 ) return -1;
  if( !WIFEXITED(status) || WEXITSTATUS(status)!=0 ) return -1;
  return ru.ru_maxrss;
}

static int big_mb;                 /* size of the value of the step */
static const char *big_db;         /* the database file of the audit steps */

/*
** Child steps: open a connection, run one query over the data, exit 1
** on error. "base" reads the same data without the function under test.
** This one: utf8_codepoints over a value of big_mb MB.
*/
static void step_codepoints(const char *zMode){
  sqlite3 *db;
  size_t n = (size_t)big_mb*1000000, errors;
  unsigned char *z = make_value(n, 1000, &errors);
  sqlite3_stmt *pStmt;
  int isBase = strcmp(zMode, "base")==0;
  sqlite3_open(":memory:", &db);
  sqlite3_prepare_v2(db, isBase
      ? "SELECT length(?1), utf8_valid(?1)"
      : "SELECT count(*), sum(valid), max(offset) FROM utf8_codepoints(?1)",
      -1, &pStmt, 0);
  sqlite3_bind_blob64(pStmt, 1, z, n, SQLITE_STATIC);
  if( sqlite3_step(pStmt)!=SQLITE_ROW ) _exit(1);
  if( !isBase && (size_t)sqlite3_column_int64(pStmt, 0)!=utf8_count_units(z, n) ) _exit(1);
  sqlite3_finalize(pStmt);
  sqlite3_close(db);
  free(z);
}

/*
** The audit step: utf8_audit over the table of make_audit_db(), or the
** baseline query that finds the same values without it.
*/
static void step_audit(const char *zMode){
  sqlite3 *db;
  sqlite3_stmt *pStmt;
  int isBase = strcmp(zMode, "base")==0;
  sqlite3_open(big_db, &db);
  sqlite3_prepare_v2(db, isBase
      ? "SELECT count(*) FROM t WHERE typeof(v)='text' AND NOT utf8_valid(v)"
      : "SELECT count(*), sum(errors), max(length(context)) FROM utf8_audit('t')",
      -1, &pStmt, 0);
  if( sqlite3_step(pStmt)!=SQLITE_ROW ) _exit(1);
  if( sqlite3_column_int64(pStmt, 0)!=100000 ) _exit(1);
  sqlite3_finalize(pStmt);
  sqlite3_close(db);
}

/*
** The database of the audit steps: 1,000,000 rows of 100 bytes, every
** tenth ill-formed (100 MB of text).
*/
static void make_audit_db(const char *zFile){
  sqlite3 *db;
  sqlite3_stmt *pStmt;
  unsigned char row[100];
  size_t errors;
  unsigned char *z = make_value(100, 0, &errors);
  int i;
  remove(zFile);
  sqlite3_open(zFile, &db);
  sqlite3_exec(db, "PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;"
                   " CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT); BEGIN", 0, 0, 0);
  sqlite3_prepare_v2(db, "INSERT INTO t(v) VALUES(?1)", -1, &pStmt, 0);
  for(i=0; i<1000000; i++){
    memcpy(row, z, 100);
    if( i%10==0 ) row[40 + i%50] = 0xC0;
    sqlite3_bind_text(pStmt, 1, (const char*)row, 100, SQLITE_STATIC);
    sqlite3_step(pStmt);
    sqlite3_reset(pStmt);
  }
  sqlite3_finalize(pStmt);
  sqlite3_exec(db, "COMMIT", 0, 0, 0);
  sqlite3_close(db);
  free(z);
}

/*
** 4. Peak RSS of the table-valued functions over 10 and 100 MB.
*/
static void test_memory(void){
  static const int sizes[] = { 10, 100 };
  long base, used;
  char zDetail[160];
  int k;
  for(k=0; k<2; k++){
    big_mb = sizes[k];
    base = child_peak_kib(step_codepoints, "base");
    used = child_peak_kib(step_codepoints, "codepoints");
    printf("peak RSS, %d MB value: SELECT length(X), utf8_valid(X): %ld KiB;"
           " utf8_codepoints(X), all rows: %ld KiB (+%ld KiB)\n",
           big_mb, base, used, used-base);
    snprintf(zDetail, sizeof(zDetail), "base %ld KiB, codepoints %ld KiB", base, used);
    /* Flat: one copy of the input, never memory per row. */
    check(base>0 && used>0 && used-base < big_mb*1000L*1.2 + 8192,
          "codepoints-rss", zDetail);
  }
  big_db = "build/limits-audit.db";
  make_audit_db(big_db);
  base = child_peak_kib(step_audit, "base");
  used = child_peak_kib(step_audit, "audit");
  printf("peak RSS, 100 MB table (1e6 rows, 1e5 ill-formed): count(*) WHERE NOT"
         " utf8_valid(v): %ld KiB; utf8_audit('t'), all rows: %ld KiB (+%ld KiB)\n",
         base, used, used-base);
  snprintf(zDetail, sizeof(zDetail), "base %ld KiB, audit %ld KiB", base, used);
  check(base>0 && used>0 && used-base < 16384, "audit-rss", zDetail);
  remove(big_db);
}

int main(int argc, char **argv){
  sqlite3 *db;
  int big = argc>1 && strcmp(argv[1], "--big")==0;
  sqlite3_auto_extension((void(*)(void))sqlite3_utf8ext_init);
  if( sqlite3_open(":memory:", &db)!=SQLITE_OK ) return 1;
  printf("SQLITE_LIMIT_LENGTH is %d by default\n",
         sqlite3_limit(db, SQLITE_LIMIT_LENGTH, -1));
  test_length_limit(db);
  test_error_limit(db);
  test_large_value(db, (size_t)16<<20, "16MiB");
  if( big ){
    test_large_value(db, (size_t)512<<20, "512MiB");
    test_memory();
  }
  sqlite3_close(db);
  printf("limits: %d passed, %d failed\n", nPass, nFail);
  return nFail>0;
}
