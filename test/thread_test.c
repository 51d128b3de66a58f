/*
** test/thread_test.c - the extension used from 8 threads at once.
**
** Each thread opens its own in-memory connection (the extension linked
** statically and registered with sqlite3_auto_extension, or, with
** UTF8EXT_LOAD=path, loaded from a shared library with
** sqlite3_load_extension), waits at a barrier so that all of them make
** their first call together (which is when core/dispatch.c chooses the
** validator, core/mojibake.c builds its table of bytes and core/guess.c
** its tables of single-byte readings), and then
** runs the same script ITERATIONS times over shared, read-only inputs:
** every scalar function on mojibake, valid and ill-formed, short and long
** values bound as TEXT and BLOB, utf8_codepoints, and utf8_audit over a
** table of its own.
**
** Every iteration's answers must equal the thread's first, and after the
** threads are joined every thread's first answers must equal what the main
** thread gets alone. Built plain for make test, and with
** -fsanitize=thread for make test-tsan, where ThreadSanitizer checks that
** there is no unsynchronized shared state.
**
** Then utf8_repair is interrupted from a second thread at 60 delays drawn
** from a fixed seed, in autocommit and in a transaction: each call must end
** all or nothing (interrupted_repairs()).
**
** Usage: thread_test [ITERATIONS]. The last line is
** "thread: N passed, N failed" (one test per thread, the comparison, and
** one per interrupt series).
*/
#include <sqlite3.h>
#include "utf8ext.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "testutil.h"

#define N_THREADS 8

/* The shared inputs: read by every thread, written by none. */
typedef struct test_value { const unsigned char *z; int n; } test_value;
static test_value values[6];

/* Queries run on each value (bound as ?1, TEXT then BLOB). */
static const char *const queries[] = {
  "SELECT utf8_guess(CAST(x'56E9726974E9' AS TEXT)), utf8_guess(?1)",
  "SELECT utf8_mojibake(?1), hex(utf8_unmojibake(?1))",
  "SELECT utf8_valid(?1), utf8_length(?1), utf8_error_offset(?1), utf8_error(?1)",
  "SELECT hex(utf8_fix(?1)), hex(utf8_fix(?1, '?', 'run')), length(utf8_fix(?1, '', 'byte'))",
  "SELECT hex(utf8_recode(?1, 'cp1252')), length(utf8_recode(?1, 'latin1')),"
  " length(utf8_recode(?1, 'cesu8')), length(utf8_recode(?1, 'mutf8'))",
  "SELECT hex(utf8_check(?1))",
  "SELECT count(*), sum(codepoint), sum(valid), group_concat(DISTINCT error)"
  " FROM utf8_codepoints(?1)",
  "SELECT utf8_encode(104, 233, 128512), utf8ext_version() IS NOT NULL,"
  " utf8ext_impl() IS NOT NULL",
};
#define N_QUERIES (int)(sizeof(queries)/sizeof(queries[0]))

/*
** Run zSql on db with ?1 bound to v (as BLOB or TEXT, or nothing when v
** is NULL); append its rows or its error to out.
*/
static void run_query(sqlite3 *db, const char *zSql, const test_value *v,
                      int asBlob, out_buf *out){
  sqlite3_stmt *pStmt = 0;
  int rc = sqlite3_prepare_v2(db, zSql, -1, &pStmt, 0);
  int i;
  if( rc==SQLITE_OK && v ){
    if( asBlob ){
      sqlite3_bind_blob(pStmt, 1, v->z, v->n, SQLITE_STATIC);
    }else{
      sqlite3_bind_text(pStmt, 1, (const char*)v->z, v->n, SQLITE_STATIC);
    }
  }
  while( rc==SQLITE_OK && sqlite3_step(pStmt)==SQLITE_ROW ){
    for(i=0; i<sqlite3_column_count(pStmt); i++){
      const char *z = (const char*)sqlite3_column_text(pStmt, i);
      out_appendf(out, "%s|", z ? z : "NULL");
    }
    out_appendf(out, "\n");
  }
  if( rc==SQLITE_OK ) rc = sqlite3_finalize(pStmt);
  else sqlite3_finalize(pStmt);
  if( rc!=SQLITE_OK ) out_appendf(out, "error: %s\n", sqlite3_errmsg(db));
}

/*
** One pass of the script on db: every query on every value, then an
** audit of the connection's own table.
*/
static void run_script(sqlite3 *db, out_buf *out){
  int q, i, asBlob;
  for(i=0; i<(int)(sizeof(values)/sizeof(values[0])); i++){
    for(asBlob=0; asBlob<2; asBlob++){
      for(q=0; q<N_QUERIES; q++) run_query(db, queries[q], &values[i], asBlob, out);
    }
  }
  run_query(db, "SELECT tbl, col, rowid, pk, offset, error, hex(bytes), errors,"
                " context FROM utf8_audit('t')", 0, 0, out);
  run_query(db, "SELECT count(*) FROM utf8_audit(NULL)", 0, 0, out);
}

/*
** Open a connection with the extension and the audited table t.
*/
static sqlite3 *open_db(out_buf *out){
  sqlite3 *db = 0;
  const char *zLoad = getenv("UTF8EXT_LOAD");
  int i;
  if( sqlite3_open(":memory:", &db)!=SQLITE_OK ){
    out_appendf(out, "open failed\n");
    return db;
  }
  if( zLoad ){
    char *zErr = 0;
    sqlite3_enable_load_extension(db, 1);
    if( sqlite3_load_extension(db, zLoad, "sqlite3_utf8ext_init", &zErr)!=SQLITE_OK ){
      out_appendf(out, "load failed: %s\n", zErr);
      sqlite3_free(zErr);
    }
  }
  run_query(db, "CREATE TABLE t(id INTEGER PRIMARY KEY, v TEXT)", 0, 0, out);
  for(i=0; i<(int)(sizeof(values)/sizeof(values[0])); i++){
    run_query(db, "INSERT INTO t(v) VALUES(CAST(?1 AS TEXT))", &values[i], 1, out);
  }
  return db;
}

typedef struct thread_state {
  int id;
  int iterations;
  out_buf first;            /* the answers of the first iteration */
  int failures;             /* iterations whose answers differed */
} thread_state;

static pthread_barrier_t start_line;

/*
** A thread: open, wait for the others, run the script again and again.
*/
static void *thread_main(void *arg){
  thread_state *t = (thread_state*)arg;
  sqlite3 *db;
  int k;
  out_buf setup = { 0, 0, 0 };
  pthread_barrier_wait(&start_line);
  db = open_db(&setup);
  if( setup.n ) t->failures++;
  for(k=0; k<t->iterations; k++){
    out_buf out = { 0, 0, 0 };
    run_script(db, &out);
    if( k==0 ){
      t->first = out;
    }else{
      if( out.n!=t->first.n || memcmp(out.z, t->first.z, out.n)!=0 ){
        if( t->failures==0 ) printf("thread %d: iteration %d differs\n", t->id, k);
        t->failures++;
      }
      free(out.z);
    }
  }
  sqlite3_close(db);
  free(setup.z);
  return 0;
}

/*
** 2026-11-28: utf8_repair interrupted by sqlite3_interrupt() from another
** thread, as an application's timer does, at a delay drawn from a fixed
** seed. Whenever the interrupt lands, the call must end all or nothing:
** success (every value repaired and logged), "nothing was changed"
** (nothing repaired, no log row, the transaction state as before),
** inside the user's transaction "SQLite rolled back the whole
** transaction" (the user's row gone too, no transaction open), or
** SQLite's own "interrupted" after the call (the repair whole). Returns
** how many of nRun runs broke that.
*/
typedef struct interrupter { sqlite3 *db; int delay_us; } interrupter;

static void *interrupt_later(void *arg){
  interrupter *x = (interrupter*)arg;
  struct timespec ts = { 0, x->delay_us*1000L };
  nanosleep(&ts, 0);
  sqlite3_interrupt(x->db);
  return 0;
}

static sqlite3_int64 one_value(sqlite3 *db, const char *zSql){
  sqlite3_stmt *p;
  sqlite3_int64 v = -1;
  if( sqlite3_prepare_v2(db, zSql, -1, &p, 0)==SQLITE_OK
   && sqlite3_step(p)==SQLITE_ROW ) v = sqlite3_column_int64(p, 0);
  sqlite3_finalize(p);
  return v;
}

static int interrupted_repairs(int bTxn, int nRun, unsigned *pSeed){
  int r, nBad = 0, nEnd[4] = { 0, 0, 0, 0 };
  for(r=0; r<nRun; r++){
    out_buf setup = { 0, 0, 0 };
    sqlite3 *db = open_db(&setup);
    interrupter x;
    pthread_t th;
    char *zErr = 0;
    sqlite3_int64 nFixed, nLog, nMine;
    int rc, ac, bad = 0;
    sqlite3_exec(db, "CREATE TABLE big(id INTEGER PRIMARY KEY, a TEXT);"
        "CREATE TABLE mine(x);"
        "WITH RECURSIVE c(i) AS (SELECT 1 UNION ALL SELECT i+1 FROM c WHERE i<2000)"
        " INSERT INTO big SELECT i, CAST(CAST('v'||i AS BLOB)||x'E9' AS TEXT) FROM c;",
        0, 0, 0);
    if( bTxn ) sqlite3_exec(db, "BEGIN; INSERT INTO mine VALUES (1)", 0, 0, 0);
    x.db = db;
    *pSeed = *pSeed*1103515245u + 12345u;
    x.delay_us = (int)((*pSeed>>8) % 12000);
    pthread_create(&th, 0, interrupt_later, &x);
    rc = sqlite3_exec(db, "SELECT utf8_repair('big')", 0, 0, &zErr);
    pthread_join(th, 0);
    ac = sqlite3_get_autocommit(db);
    nFixed = one_value(db, "SELECT count(*) FROM big WHERE utf8_valid(a)");
    nLog = one_value(db, "SELECT count(*) FROM utf8_repair_log WHERE tbl='big'");
    nMine = one_value(db, "SELECT count(*) FROM mine");
    if( rc==SQLITE_OK || (zErr && strcmp(zErr, "interrupted")==0) ){
      bad = !(ac==!bTxn && nMine==bTxn
              && ((nFixed==2000 && nLog==2000) || (rc!=SQLITE_OK && nFixed==0)));
      nEnd[0]++;
    }else if( zErr && strstr(zErr, "; nothing was changed") ){
      bad = !(ac==!bTxn && nMine==bTxn && nFixed==0 && nLog<=0);
      nEnd[1]++;
    }else if( zErr && strstr(zErr, "; SQLite rolled back the whole transaction") ){
      bad = !(bTxn && ac && nMine==0 && nFixed==0);
      nEnd[2]++;
    }else{
      bad = 1;
      nEnd[3]++;
    }
    if( bad && nBad++<3 ){
      printf("interrupt run %d (txn %d, %d us): rc=%d ac=%d fixed=%lld log=%lld"
             " mine=%lld: %s\n", r, bTxn, x.delay_us, rc, ac, nFixed, nLog, nMine,
             zErr ? zErr : "");
    }
    sqlite3_free(zErr);
    sqlite3_close(db);
    free(setup.z);
  }
  printf("interrupt from a thread, %s: %d runs: success %d, nothing changed %d,"
         " transaction rolled back %d, other %d\n",
         bTxn ? "in a transaction" : "autocommit", nRun, nEnd[0], nEnd[1],
         nEnd[2], nEnd[3]);
  return nBad;
}

/*
** A string of n bytes repeating pattern z[0..k).
*/
static unsigned char *repeat(const char *z, int k, int n){
  unsigned char *p = malloc((size_t)n);
  int i;
  if( p==0 ) abort();
  for(i=0; i<n; i++) p[i] = (unsigned char)z[i%k];
  return p;
}

int main(int argc, char **argv){
  thread_state threads[N_THREADS];
  pthread_t tid[N_THREADS];
  int iterations = argc>1 ? atoi(argv[1]) : 10;
  int nPass = 0, nFail = 0, i;
  out_buf expected = { 0, 0, 0 }, setup = { 0, 0, 0 };
  sqlite3 *db;

  /* mojibake first: its first call builds core/mojibake.c's table */
  values[0].z = (const unsigned char*)"Caf\xC3\x83\xC2\xA9 \xC3\xA2\xE2\x82\xAC\xE2\x80\x9D "
                "\xC3\x90\xC2\xBF\xC3\x91\xE2\x82\xAC\xC3\x90\xC2\xB8";  /* Café — при */
  values[0].n = (int)strlen((const char*)values[0].z);
  values[1].z = (const unsigned char*)"h\xC3\xA9llo"; values[1].n = 6;
  values[2].z = (const unsigned char*)"a\xF1\x80\x80\xE1\x80\xC2" "b\x80" "c\x80\xBF" "d";
  values[2].n = 13;
  values[3].z = repeat("h\xC3\xA9llo \xF0\x9F\x98\x80 ", 12, 30000);   /* long, valid */
  values[4].z = repeat("h\xC3\xA9llo \xC0\x80\xED\xA0\x80 ", 13, 30000); /* long, ill-formed */
  values[3].n = values[4].n = 30000;
  values[5].z = (const unsigned char*)"\xED\xA0\xBD\xED\xB8\x80\xC0\x80"; values[5].n = 8;

  if( !getenv("UTF8EXT_LOAD") ){
    sqlite3_auto_extension((void(*)(void))sqlite3_utf8ext_init);
  }
  pthread_barrier_init(&start_line, 0, N_THREADS);
  for(i=0; i<N_THREADS; i++){
    memset(&threads[i], 0, sizeof(threads[i]));
    threads[i].id = i;
    threads[i].iterations = iterations;
    pthread_create(&tid[i], 0, thread_main, &threads[i]);
  }
  for(i=0; i<N_THREADS; i++) pthread_join(tid[i], 0);

  /* The same script alone, after the threads. */
  db = open_db(&setup);
  run_script(db, &expected);
  sqlite3_close(db);
  for(i=0; i<N_THREADS; i++){
    int same = threads[i].first.n==expected.n
            && memcmp(threads[i].first.z, expected.z, expected.n)==0;
    if( !same ) printf("thread %d: answers differ from the single-threaded run\n", i);
    if( same && threads[i].failures==0 ) nPass++; else nFail++;
    free(threads[i].first.z);
  }
  /* The answers themselves: spot-check a few against known values. */
  if( strstr(expected.z, "0|10|1|missing continuation at byte 1: F18080|")
   && strstr(expected.z, "61EFBFBDEFBFBDEFBFBD62EFBFBD63EFBFBDEFBFBD64")
   && strstr(expected.z, "error: utf8_check: overlong at byte 7: C0")
   && setup.n==0 ){
    nPass++;
  }else{
    printf("the single-threaded answers are wrong:\n%.2000s\n", expected.z);
    nFail++;
  }
  /* the interrupts: a fixed seed, so the same delays in every run */
  {
    unsigned seed = 20261128u;
    int b;
    printf("interrupt from a thread: seed %u\n", seed);
    for(b=0; b<2; b++){
      if( interrupted_repairs(b, 30, &seed)==0 ) nPass++; else nFail++;
    }
  }
  printf("%d threads x %d iterations x %d queries\n", N_THREADS, iterations,
         2*N_QUERIES*(int)(sizeof(values)/sizeof(values[0])) + 2);
  free(expected.z);
  free(setup.z);
  free((void*)values[3].z);
  free((void*)values[4].z);
  printf("thread: %d passed, %d failed\n", nPass, nFail);
  return nFail>0;
}
