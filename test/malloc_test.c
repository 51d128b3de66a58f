/*
** test/malloc_test.c - allocation failures, in the style of SQLite's
** malloc tests.
**
** A wrapper around SQLite's default allocator (SQLITE_CONFIG_GETMALLOC,
** then SQLITE_CONFIG_MALLOC) fails exactly the Nth allocation of a run
** and counts the allocations that are live. One run opens an in-memory
** database (the extension registered statically with
** sqlite3_auto_extension), fills a table with valid and ill-formed, short
** and long values, and calls every function: each scalar with TEXT and
** BLOB arguments, utf8_codepoints and utf8_audit (rowid and WITHOUT ROWID
** tables, one table and all; also past a small memory budget, where its
** findings go to a temporary database), utf8_audit_summary, utf8_repair
** (methods fix and mojibake) and utf8_undo, and the error paths.
**
** The script runs in segments (find_segments()), each from a fresh
** database. For each segment, first a run with no failure records what each
** statement returns. Then
** for N = 1, 2, ... until a run completes without reaching its Nth
** allocation, each statement must either give exactly its recorded
** answer or, once the failure has happened, fail with SQLITE_NOMEM
** (nothing else: not a wrong answer, not another error; see one_run() for
** the one exception). The run stops at the first statement that fails. After sqlite3_close() as many allocations must be live as
** before sqlite3_open(): nothing leaks.
**
** Then the same again with every allocation from the Nth on failing
** (SQLite's "persistent" mode), so that the error paths also run out of
** memory.
**
** Usage: malloc_test [-v]. The last line is "malloc: N passed, N failed"
** (one test per N and mode, and the clean run).
*/
#include <sqlite3.h>
#include "utf8ext.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static sqlite3_mem_methods default_mem;   /* SQLite's own allocator */
static long long alloc_count;             /* allocations in this run */
static long long fail_at;                 /* fail this one (0: none) */
static int persistent;                    /* ... and every one after it */
static int lost_messages;                 /* errors whose text was lost */
static long long failures;                /* failures injected this run */
static long long live;                    /* allocations not yet freed */

/*
** True if this allocation is the one to fail.
*/
static int should_fail(void){
  alloc_count++;
  if( fail_at>0 && (alloc_count==fail_at || (persistent && alloc_count>fail_at)) ){
    failures++;
    return 1;
  }
  return 0;
}

/* xMalloc: fail the Nth, count the live ones. */
static void *failing_malloc(int n){
  void *p;
  if( should_fail() ) return 0;
  p = default_mem.xMalloc(n);
  if( p ) live++;
  return p;
}

/* xFree. */
static void failing_free(void *p){
  if( p ) live--;
  default_mem.xFree(p);
}

/* xRealloc: a growing or shrinking block counts as an allocation too. */
static void *failing_realloc(void *p, int n){
  void *pNew;
  if( should_fail() ) return 0;
  pNew = default_mem.xRealloc(p, n);
  if( pNew && p==0 ) live++;
  return pNew;
}

/* xSize: passed through. */
static int failing_size(void *p){ return default_mem.xSize(p); }
/* xRoundup: passed through. */
static int failing_roundup(int n){ return default_mem.xRoundup(n); }
/* xInit: passed through. */
static int failing_init(void *pAppData){ return default_mem.xInit(pAppData); }
/* xShutdown: passed through. */
static void failing_shutdown(void *pAppData){ default_mem.xShutdown(pAppData); }

/*
** The values every function is called on: valid and ill-formed, short and
** long (built in main()).
*/
typedef struct test_value { const unsigned char *z; int n; } test_value;
static test_value values[6];

/*
** The statements of one run. "INSERT-VALUES" is special: it inserts the
** values into t and w with bound parameters.
*/
static const char *const script[] = {
  "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT, b BLOB)",
  "CREATE TABLE w(k TEXT, j INT, v TEXT, PRIMARY KEY(k, j)) WITHOUT ROWID",
  "INSERT-VALUES",
  "SELECT id, utf8_valid(v), utf8_valid(b), length(utf8_fix(v)),"
  " hex(substr(utf8_fix(b), 1, 30)), length(utf8_fix(v, '?', 'run')),"
  " length(utf8_fix(b, '', 'byte')), length(utf8_fix(v, 'ab'))"
  " FROM t ORDER BY id",
  "SELECT id, utf8_length(v), utf8_length(b), utf8_error_offset(v),"
  " utf8_error(v), utf8_error(b) FROM t ORDER BY id",
  "SELECT id, length(utf8_recode(v, 'cp1252')), length(utf8_recode(b, 'latin1')),"
  " length(utf8_recode(v, 'cesu8')), hex(substr(utf8_recode(b, 'mutf8'), 1, 20))"
  " FROM t ORDER BY id",
  "SELECT id, length(utf8_check(v)) FROM t WHERE utf8_valid(v) ORDER BY id",
  "SELECT utf8_check(v) FROM t WHERE id=2",
  "SELECT utf8_check(b) FROM t WHERE id=4",
  "SELECT utf8_encode(104, 233, 128512, 0), utf8_encode(), utf8_encode(NULL)",
  "SELECT utf8_encode(55296)",
  "SELECT utf8_encode('x')",
  "SELECT utf8_fix('a', x'C0')",
  "SELECT utf8_fix('a', '?', 'nonsense')",
  "SELECT utf8_recode('a', 'ebcdic')",
  "SELECT utf8_mojibake('Caf\xC3\x83\xC2\xA9'), utf8_unmojibake('Caf\xC3\x83\xC2\xA9'),"
  " utf8_unmojibake(v), utf8_mojibake(b) FROM t ORDER BY id",
  "SELECT utf8ext_version() IS NOT NULL, utf8ext_impl() IS NOT NULL",
  "SELECT t.id, count(*), sum(c.codepoint), sum(c.valid), sum(length(c.bytes)),"
  " group_concat(DISTINCT c.error)"
  " FROM t, utf8_codepoints(t.v) AS c GROUP BY t.id ORDER BY t.id",
  "SELECT offset, length, hex(bytes), codepoint, char, valid, error"
  " FROM utf8_codepoints(x'61F18080E180C262806380BF64')",
  "SELECT count(*) FROM utf8_codepoints((SELECT b FROM t WHERE id=4))",
  "SELECT * FROM utf8_codepoints",
  "SELECT tbl, col, rowid, pk, offset, error, hex(bytes), errors, context"
  " FROM utf8_audit('t')",
  "SELECT tbl, col, rowid, pk, offset, error, hex(bytes), errors, length(context)"
  " FROM utf8_audit(NULL)",
  "SELECT count(*) FROM utf8_audit('w', 'main')",
  "SELECT * FROM utf8_audit('nosuch')",
  "SELECT * FROM utf8_audit(12)",
  "SELECT * FROM utf8_audit('t', 3.5)",
  "SELECT count(*) FROM utf8_audit('T', 'MAIN')",
  "SELECT * FROM utf8_audit('t', 'nosuch')",
  "SELECT * FROM utf8_audit",
  "UPDATE t SET v = utf8_fix(v) WHERE id IN (SELECT rowid FROM utf8_audit('t'))",
  "SELECT count(*) FROM utf8_audit(NULL)",
  "SELECT * FROM utf8_audit_summary(NULL)",
  "SELECT utf8_repair(NULL)",
  "SELECT tbl, col, rid, hex(key), pk, hex(original), hex(repaired), method"
  " FROM utf8_repair_log ORDER BY id",
  "SELECT utf8_undo('w')",
  "SELECT utf8_undo()",
  "SELECT count(*) FROM utf8_repair_log",
  "SELECT id, hex(v), hex(b) FROM t ORDER BY id",
  "SELECT hex(k), j, hex(v) FROM w ORDER BY k, j",
  "SELECT utf8_repair('t', 'nonsense')",
  /* the mojibake method and count: a key that is mojibake, an ill-formed
  ** value left alone, a rowid table, then undo */
  "CREATE TABLE m(k TEXT PRIMARY KEY, v TEXT, j INT) WITHOUT ROWID",
  "INSERT INTO m VALUES ('Caf\xC3\x83\xC2\xA9', 'It\xC3\xA2\xE2\x82\xAC\xE2\x84\xA2s', 1),"
  " ('ok', '\xC3\x83\xC6\x92\xC3\x82\xC2\xA9', 2), ('x', CAST(x'C383C2A9FF' AS TEXT), 3)",
  "CREATE TABLE mr(v TEXT)",
  "INSERT INTO mr VALUES ('\xC3\x83\xC2\xA9'), ('plain'), (x'C383C2A9')",
  "SELECT tbl, col, checked, bad, mojibake FROM utf8_audit_summary(NULL)",
  "SELECT utf8_repair(NULL, 'mojibake')",
  "SELECT tbl, col, rid, hex(key), pk, hex(original), hex(repaired), method"
  " FROM utf8_repair_log ORDER BY id",
  "SELECT utf8_repair(NULL, 'mojibake')",
  "SELECT utf8_undo()",
  "SELECT hex(k), hex(v), j FROM m ORDER BY j",
  "SELECT hex(v) FROM mr ORDER BY rowid",
  "SELECT count(*) FROM utf8_repair_log",
  /* utf8_audit past its memory budget: with 150 bytes the first finding
  ** stays in memory, the second moves both to the temporary database
  ** (utf8ext_spill.c), and later ones go there one by one */
  "SET-AUDIT-BUDGET",
  "SELECT tbl, col, rowid, pk, offset, error, hex(bytes), errors, context"
  " FROM utf8_audit(NULL)",
  "SELECT count(*), sum(errors), group_concat(pk) FROM utf8_audit('w', 'main')",
};
#define N_SCRIPT (int)(sizeof(script)/sizeof(script[0]))

/*
** The script after its first three statements (the tables and their
** values) is cut into segments, each run from a fresh database that gets
** those three first. A run stops at its failure, so the runs of one
** script cost about the square of its allocations: five segments cost a
** third of one whole script (malloc_test took 177 s, 458 s under
** AddressSanitizer, before the cut). A sixth, the repair apart from the
** audit before it, took it from 278 s to 139 s under AddressSanitizer.
** A segment is named by the start of its first statement; the segments
** keep statements that depend on each other together.
*/
#define N_SETUP 3
static const char *const segment_starts[] = {
  "SELECT id, utf8_valid(v)",         /* the scalar functions */
  "SELECT t.id, count(*)",            /* utf8_codepoints */
  "SELECT tbl, col, rowid, pk",       /* utf8_audit and its errors */
  "UPDATE t SET v = utf8_fix(v)",     /* the audit after an UPDATE */
  "SELECT utf8_repair(NULL)",         /* repair with 'fix', undo */
  "CREATE TABLE m(",                  /* the 'mojibake' method and count */
  "SET-AUDIT-BUDGET",                 /* utf8_audit's temporary database */
};
#define N_SEGMENT (int)(sizeof(segment_starts)/sizeof(segment_starts[0]))
static int seg_lo[N_SEGMENT], seg_hi[N_SEGMENT];

/* Where each segment begins and ends in script[]; 0 if one is not found. */
static int find_segments(void){
  int k, i;
  for(k=0; k<N_SEGMENT; k++){
    seg_lo[k] = -1;
    for(i=N_SETUP; i<N_SCRIPT; i++){
      if( strncmp(script[i], segment_starts[k], strlen(segment_starts[k]))==0 ){
        seg_lo[k] = i;
        break;
      }
    }
    if( seg_lo[k]<0 || (k>0 && seg_lo[k]<=seg_lo[k-1]) ) return 0;
    if( k>0 ) seg_hi[k-1] = seg_lo[k];
  }
  seg_hi[N_SEGMENT-1] = N_SCRIPT;
  return seg_lo[0]==N_SETUP;
}

/* What one statement gave: its result code and its rows as text. */
typedef struct stmt_result { int rc; out_buf out; } stmt_result;

/*
** Insert the test values into t (as TEXT and as BLOB) and into w.
*/
static int insert_values(sqlite3 *db, out_buf *out){
  sqlite3_stmt *pT = 0, *pW = 0;
  int rc, i;
  rc = sqlite3_prepare_v2(db, "INSERT INTO t(id, v, b) VALUES(?1, ?2, ?3)", -1, &pT, 0);
  if( rc==SQLITE_OK ){
    rc = sqlite3_prepare_v2(db, "INSERT INTO w VALUES(?2, ?1, ?2)", -1, &pW, 0);
  }
  for(i=0; rc==SQLITE_OK && i<6; i++){
    sqlite3_stmt *p;
    for(p=pT; p; p = (p==pT && values[i].z) ? pW : 0){
      sqlite3_reset(p);
      sqlite3_bind_int(p, 1, i+1);
      if( values[i].z ){
        sqlite3_bind_text(p, 2, (const char*)values[i].z, values[i].n, SQLITE_STATIC);
        if( p==pT ) sqlite3_bind_blob(p, 3, values[i].z, values[i].n, SQLITE_STATIC);
      }else{
        sqlite3_bind_null(p, 2);
        if( p==pT ) sqlite3_bind_null(p, 3);
      }
      rc = sqlite3_step(p);
      rc = rc==SQLITE_DONE ? SQLITE_OK : sqlite3_reset(p);
      if( rc!=SQLITE_OK ) break;
    }
  }
  if( rc!=SQLITE_OK ) out_appendf(out, "error %d: %s", rc, sqlite3_errmsg(db));
  sqlite3_finalize(pT);
  sqlite3_finalize(pW);
  return rc;
}

/*
** Run statement zSql on db; its rows (or its error) go to r->out.
*/
static void run_statement(sqlite3 *db, const char *zSql, stmt_result *r){
  sqlite3_stmt *pStmt = 0;
  int rc, i;
  memset(&r->out, 0, sizeof(r->out));
  out_appendf(&r->out, "%s", "");
  if( strcmp(zSql, "INSERT-VALUES")==0 ){
    r->rc = insert_values(db, &r->out);
    return;
  }
  if( strcmp(zSql, "SET-AUDIT-BUDGET")==0 ){
    /* utf8ext_audit.c reads it at each xFilter; one_run() unsets it */
    r->rc = setenv("UTF8EXT_AUDIT_BUDGET", "150", 1)==0 ? SQLITE_OK : SQLITE_ERROR;
    return;
  }
  rc = sqlite3_prepare_v2(db, zSql, -1, &pStmt, 0);
  while( rc==SQLITE_OK && (rc = sqlite3_step(pStmt))==SQLITE_ROW ){
    rc = SQLITE_OK;
    for(i=0; i<sqlite3_column_count(pStmt); i++){
      const char *z = (const char*)sqlite3_column_text(pStmt, i);
      out_appendf(&r->out, "%s|", z ? z : "NULL");
    }
    out_appendf(&r->out, "\n");
  }
  if( rc==SQLITE_DONE ) rc = SQLITE_OK;
  if( rc!=SQLITE_OK ){
    rc = sqlite3_finalize(pStmt);
    pStmt = 0;
    if( rc==SQLITE_OK ) rc = sqlite3_errcode(db);
    out_appendf(&r->out, "error: %s", sqlite3_errmsg(db));
  }
  sqlite3_finalize(pStmt);
  r->rc = rc;
}

static char *expected_out[N_SCRIPT];
static int expected_rc[N_SCRIPT];
static int verbose;

/*
** One run, failing allocation number failAt (0: none). With record set,
** store what each statement gives; otherwise compare. Returns 0 if the run
** behaved, 1 if not; sets *pReached when the failure was injected.
*/
static int one_run(int seg, long long failAt, int record, int *pReached){
  sqlite3 *db = 0;
  long long liveBefore;
  int i, rc, bad = 0;

  unsetenv("UTF8EXT_AUDIT_BUDGET");
  liveBefore = live;
  alloc_count = 0;
  failures = 0;
  fail_at = failAt;
  rc = sqlite3_open(":memory:", &db);
  if( rc!=SQLITE_OK ){
    if( failures==0 || (rc!=SQLITE_NOMEM && rc!=SQLITE_ERROR) ){
      printf("N=%lld: sqlite3_open gave %d without an injected failure\n", failAt, rc);
      bad = 1;
    }
  }
  for(i=0; rc==SQLITE_OK && i<seg_hi[seg]; i = i+1==N_SETUP ? seg_lo[seg] : i+1){
    stmt_result r;
    long long failuresBefore = failures;
    char *zOut;
    run_statement(db, script[i], &r);
    zOut = r.out.z;
    if( record ){
      expected_rc[i] = r.rc;
      free(expected_out[i]);
      expected_out[i] = strdup(zOut);
      if( verbose ) printf("[%d] rc=%d\n%s\n", i, r.rc, zOut);
    }else if( r.rc==expected_rc[i] && strcmp(zOut, expected_out[i])==0 ){
      /* exactly the answer of the clean run */
    }else if( failures>failuresBefore && r.rc!=SQLITE_OK ){
      /* the injected failure, reported as SQLITE_NOMEM: stop this run.
      ** One exception: with every allocation failing, a statement whose
      ** answer is an error message may lose the message: SQLite cannot
      ** copy it and reports the same error code with its generic text
      ** ("SQL logic error"). Still an error, never a wrong answer. */
      if( r.rc!=SQLITE_NOMEM && persistent && r.rc==expected_rc[i]
       && expected_rc[i]!=SQLITE_OK ){
        lost_messages++;
      }else if( r.rc!=SQLITE_NOMEM ){
        printf("segment %d, N=%lld: statement %d: %s\n  failed with %d, not SQLITE_NOMEM: %s\n",
               seg, failAt, i, script[i], r.rc, zOut);
        bad = 1;
      }
      rc = r.rc;
    }else{
      printf("segment %d, N=%lld: statement %d: %s\n  rc=%d (expected %d)\n"
             "  got:      %.300s\n  expected: %.300s\n", seg, failAt, i, script[i],
             r.rc, expected_rc[i], zOut, expected_out[i]);
      bad = 1;
      rc = SQLITE_ERROR;
    }
    free(zOut);
  }
  if( sqlite3_close(db)!=SQLITE_OK ){
    printf("N=%lld: sqlite3_close failed: statements left open\n", failAt);
    bad = 1;
  }
  fail_at = 0;
  if( live!=liveBefore ){
    printf("N=%lld: %lld allocations leaked\n", failAt, live-liveBefore);
    bad = 1;
  }
  *pReached = failures>0;
  return bad;
}

/*
** A string of n bytes repeating pattern z[0..k).
*/
static unsigned char *repeat(const char *z, int k, int n){
  unsigned char *p = malloc((size_t)n);
  int i;
  if( p==0 ) exit(1);
  for(i=0; i<n; i++) p[i] = (unsigned char)z[i%k];
  return p;
}

int main(int argc, char **argv){
  static sqlite3_mem_methods failing_mem;
  int nPass = 0, nFail = 0, reached = 1;
  long long n;
  int i, seg;

  verbose = argc>1 && strcmp(argv[1], "-v")==0;
  values[0].z = (const unsigned char*)"h\xC3\xA9llo"; values[0].n = 6;
  values[1].z = (const unsigned char*)"a\xF1\x80\x80\xE1\x80\xC2" "b\x80" "c\x80\xBF" "d";
  values[1].n = 13;
  values[2].z = repeat("h\xC3\xA9llo \xF0\x9F\x98\x80 ", 12, 6000);   /* long, valid */
  values[3].z = repeat("h\xC3\xA9llo \xC0\x80\xED\xA0\x80 ", 14, 6000); /* long, ill-formed */
  values[2].n = values[3].n = 6000;
  values[4].z = (const unsigned char*)""; values[4].n = 0;
  values[5].z = 0; values[5].n = 0;                                  /* NULL */

  sqlite3_config(SQLITE_CONFIG_GETMALLOC, &default_mem);
  failing_mem = default_mem;
  failing_mem.xMalloc = failing_malloc;
  failing_mem.xFree = failing_free;
  failing_mem.xRealloc = failing_realloc;
  failing_mem.xSize = failing_size;
  failing_mem.xRoundup = failing_roundup;
  failing_mem.xInit = failing_init;
  failing_mem.xShutdown = failing_shutdown;
  if( sqlite3_config(SQLITE_CONFIG_MALLOC, &failing_mem)!=SQLITE_OK
   || sqlite3_config(SQLITE_CONFIG_LOOKASIDE, 0, 0)!=SQLITE_OK ){
    printf("sqlite3_config failed\nmalloc: 0 passed, 1 failed\n");
    return 1;
  }
  sqlite3_initialize();
  sqlite3_auto_extension((void(*)(void))sqlite3_utf8ext_init);

  if( !find_segments() ){
    printf("a segment's first statement is not in the script\nmalloc: 0 passed, 1 failed\n");
    return 1;
  }
  /* A clean run first makes SQLite's one-time allocations, so that the
  ** leak count of every later run starts even. */
  one_run(0, 0, 1, &reached);
  for(seg=0; seg<N_SEGMENT; seg++){
    if( one_run(seg, 0, 1, &reached) ) nFail++; else nPass++;
    printf("segment %d (%s...): clean run, %lld allocations\n", seg,
           segment_starts[seg], alloc_count);
    for(persistent=0; persistent<2; persistent++){
      for(n=1, reached=1; reached; n++){
        if( one_run(seg, n, 0, &reached) ) nFail++; else nPass++;
      }
      printf("  %s: failed allocation 1 to %lld; allocation %lld was never reached\n",
             persistent ? "persistent (that one and all after it)" : "one at a time",
             n-2, n-1);
    }
    persistent = 0;
  }
  printf("every failure was SQLITE_NOMEM but %d, in persistent mode, where an"
         " expected error lost its message\n", lost_messages);
  for(i=0; i<N_SCRIPT; i++) free(expected_out[i]);
  free((void*)values[2].z);
  free((void*)values[3].z);
  printf("malloc: %d passed, %d failed\n", nPass, nFail);
  return nFail>0;
}
