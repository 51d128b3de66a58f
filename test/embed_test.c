/*
** test/embed_test.c - utf8ext embedded in a C program.
**
** The way an application ships utf8ext without a loadable module: it links
** libutf8ext.a and registers the entry point with sqlite3_auto_extension(),
** so every connection it opens has the functions. This program does that
** against whatever SQLite it is linked with (Debian's libsqlite3 in
** "make test", an amalgamation in "make test-sqlite-versions") and checks
** the exact result of every function the extension registers.
**
**   embed_test                 register statically (sqlite3_auto_extension)
**   embed_test --load PATH     load the module PATH with sqlite3_load_extension
**                              instead, to test it against this SQLite
**
** It prints "embed (SQLite VERSION, how): N passed, N failed".
*/
#include <sqlite3.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "utf8ext.h"

static int nPass = 0;
static int nFail = 0;

/* A growing string: the rows of a query in the shell's list mode. */
typedef struct Out { char *z; size_t n, cap; } Out;

static void out_append(Out *p, const char *z){
  size_t len = strlen(z);
  if( p->n + len + 1 > p->cap ){
    p->cap = (p->n + len + 1) * 2;
    p->z = realloc(p->z, p->cap);
    if( p->z==0 ){ fprintf(stderr, "out of memory\n"); exit(2); }
  }
  memcpy(p->z + p->n, z, len + 1);
  p->n += len;
}

/*
** Run every statement of SQL on db. Returns what the sqlite3 shell would
** print in list mode: columns joined by '|', rows by '\n', NULL as "NULL"
** (so it is told apart from ''); an error as "ERROR: message". The caller
** frees the result.
*/
static char *run(sqlite3 *db, const char *zSql){
  Out out = {0, 0, 0};
  const char *zTail = zSql;
  out_append(&out, "");
  while( zTail && *zTail ){
    sqlite3_stmt *pStmt = 0;
    int rc = sqlite3_prepare_v2(db, zTail, -1, &pStmt, &zTail);
    if( rc!=SQLITE_OK ){
      out_append(&out, "ERROR: ");
      out_append(&out, sqlite3_errmsg(db));
      return out.z;
    }
    if( pStmt==0 ) continue;   /* whitespace or a comment */
    while( (rc = sqlite3_step(pStmt))==SQLITE_ROW ){
      int i;
      if( out.n ) out_append(&out, "\n");
      for(i=0; i<sqlite3_column_count(pStmt); i++){
        const char *z = (const char*)sqlite3_column_text(pStmt, i);
        if( i ) out_append(&out, "|");
        out_append(&out, z ? z : "NULL");
      }
    }
    if( rc!=SQLITE_DONE ){
      out_append(&out, out.n ? "\nERROR: " : "ERROR: ");
      out_append(&out, sqlite3_errmsg(db));
      sqlite3_finalize(pStmt);
      return out.z;
    }
    sqlite3_finalize(pStmt);
  }
  return out.z;
}

/* Run SQL and compare what it prints with EXPECTED. */
static void check(sqlite3 *db, const char *zName, const char *zSql,
                  const char *zExpected){
  char *zGot = run(db, zSql);
  if( strcmp(zGot, zExpected)==0 ){
    nPass++;
  }else{
    nFail++;
    printf("%s FAILED\n  sql:      %s\n  expected: [%s]\n  got:      [%s]\n",
           zName, zSql, zExpected, zGot);
  }
  free(zGot);
}

/*
** Run SQL and compare the start of what it prints with PREFIX: for messages
** whose wording changed between SQLite versions.
*/
static void check_prefix(sqlite3 *db, const char *zName, const char *zSql,
                         const char *zPrefix){
  char *zGot = run(db, zSql);
  if( strncmp(zGot, zPrefix, strlen(zPrefix))==0 ){
    nPass++;
  }else{
    nFail++;
    printf("%s FAILED\n  sql:      %s\n  expected: [%s...]\n  got:      [%s]\n",
           zName, zSql, zPrefix, zGot);
  }
  free(zGot);
}

/* The functions, each with the results docs/reference.md gives. */
static void test_functions(sqlite3 *db){
  check(db, "valid-1",
    "SELECT utf8_valid('Zoë'), utf8_valid(x'5A6FEB'), utf8_valid(x'C080'),"
    " utf8_valid(NULL), utf8_valid(42)", "1|0|0|NULL|1");

  check(db, "fix-1", "SELECT hex(utf8_fix(x'61F18080E180C262806380BF64'))",
    "61EFBFBDEFBFBDEFBFBD62EFBFBD63EFBFBDEFBFBD64");
  check(db, "fix-2",
    "SELECT utf8_fix(x'5A6FEB', '?'), utf8_fix(x'5A6FEB', ''), typeof(utf8_fix(x'41'))",
    "Zo?|Zo|text");
  check(db, "fix-3",
    "SELECT utf8_fix(x'61808062', '?', 'run'), utf8_fix(x'61808062', '?', 'subpart'),"
    " utf8_fix(x'61E18062', '?'), utf8_fix(x'61E18062', '?', 'byte')",
    "a?b|a??b|a?b|a??b");
  check(db, "fix-4", "SELECT utf8_fix('x', x'FF')",
    "ERROR: utf8_fix: the replacement R is not well-formed UTF-8");

  check(db, "length-1",
    "SELECT utf8_length('Zoë'), utf8_length(x'61F18080E180C262806380BF64')", "3|10");
  check(db, "error_offset-1",
    "SELECT utf8_error_offset(x'616263C0'), utf8_error_offset('abc')", "3|NULL");
  check(db, "error-1", "SELECT utf8_error(x'41E4BD'), utf8_error(x'616263C080')",
    "truncated at byte 1: E4BD|overlong at byte 3: C0");
  check(db, "check-1", "SELECT utf8_check('fine'), typeof(utf8_check(x'41'))",
    "fine|blob");
  check(db, "check-2", "SELECT utf8_check(x'41E4BD')",
    "ERROR: utf8_check: truncated at byte 1: E4BD");

  check(db, "encode-1", "SELECT hex(utf8_encode(72, 105, 0x1F600)), utf8_encode()",
    "4869F09F9880|");
  check(db, "encode-2", "SELECT utf8_encode(72, 0xD800)",
    "ERROR: utf8_encode: argument 2 is a surrogate: 0xD800");

  check(db, "recode-1",
    "SELECT utf8_recode(x'636166E9', 'cp1252'), utf8_recode(x'4DFC6E6368656E', 'latin1'),"
    " hex(utf8_recode(x'EDA18CEDBEB4', 'cesu8')), hex(utf8_recode(x'61C08062', 'mutf8'))",
    "café|München|F0A38EB4|610062");
  check(db, "recode-2", "SELECT utf8_recode('x', 'utf16')",
    "ERROR: utf8_recode: unknown encoding 'utf16': use 'cp1252' (or 'windows-1252'), 'latin1' (or 'latin-1', 'iso-8859-1'), 'cesu8', 'mutf8', 'utf-8', or a legacy charset: "
    "'ibm866', 'iso-8859-2', 'iso-8859-3', 'iso-8859-4', 'iso-8859-5', 'iso-8859-6', 'iso-8859-7', 'iso-8859-8', 'iso-8859-10', 'iso-8859-13', 'iso-8859-14', 'iso-8859-15', 'iso-8859-16', 'koi8-r', 'koi8-u', 'macintosh', 'windows-874', 'windows-1250', 'windows-1251', 'windows-1252', 'windows-1253', 'windows-1254', 'windows-1255', 'windows-1256', 'windows-1257', 'windows-1258', 'x-mac-cyrillic', 'ibm437', 'ibm850', 'latin1', 'gbk', 'gb18030', 'big5', 'euc-jp', 'shift_jis', 'euc-kr'");

  check(db, "version-1", "SELECT utf8ext_version()", UTF8EXT_VERSION);
  check(db, "impl-1",
    "SELECT utf8ext_impl() IN ('scalar', 'sse4', 'avx2', 'avx512', 'neon')", "1");

  check(db, "codepoints-1",
    "SELECT offset, length, hex(bytes), codepoint, valid, error"
    " FROM utf8_codepoints(x'41E4BDF09F9880C0')",
    "0|1|41|65|1|NULL\n"
    "1|2|E4BD|NULL|0|missing continuation\n"
    "3|4|F09F9880|128512|1|NULL\n"
    "7|1|C0|NULL|0|overlong");

  check(db, "audit-1",
    "CREATE TABLE people(id INTEGER PRIMARY KEY, name TEXT, city TEXT);"
    "INSERT INTO people VALUES (1, 'Zoë', 'Zürich'), (2, CAST(x'5A6FEB' AS TEXT), 'Bern'),"
    " (3, CAST(x'4A617661C0804E756C6C' AS TEXT), CAST(x'4DFC6E6368656E' AS TEXT));"
    "SELECT tbl, col, rowid, pk, offset, error, hex(bytes), errors, context"
    " FROM utf8_audit('people');",
    "people|name|2|2|2|truncated|EB|1|Zo\xEF\xBF\xBD\n"
    "people|name|3|3|4|overlong|C0|2|Java\xEF\xBF\xBD\xEF\xBF\xBDNull\n"
    "people|city|3|3|1|too large|FC|1|M\xEF\xBF\xBDnchen");

  check(db, "repair-1",
    "SELECT utf8_repair('people'), (SELECT count(*) FROM utf8_audit('people'));"
    "SELECT col, rid, hex(original), hex(repaired), method FROM utf8_repair_log ORDER BY id;",
    "3|0\n"
    "name|2|5A6FEB|5A6FEFBFBD|fix\n"
    "name|3|4A617661C0804E756C6C|4A617661EFBFBDEFBFBD4E756C6C|fix\n"
    "city|3|4DFC6E6368656E|4DEFBFBD6E6368656E|fix");
  check(db, "repair-2",
    "SELECT utf8_undo(); SELECT hex(name), hex(city) FROM people WHERE id=3;",
    "3\n4A617661C0804E756C6C|4DFC6E6368656E");

  /*
  ** The reason to embed it: a CHECK constraint that keeps bad text out.
  ** (SQLite before 3.32 named the table, not the expression, in the message.)
  */
  check_prefix(db, "constraint-1",
    "CREATE TABLE person(name TEXT CHECK (utf8_valid(name)));"
    "INSERT INTO person VALUES ('Zoë');"
    "INSERT INTO person VALUES (CAST(x'5A6FEB' AS TEXT));",
    "ERROR: CHECK constraint failed: ");
  check(db, "constraint-2", "SELECT count(*) FROM person", "1");
}

int main(int argc, char **argv){
  const char *zLoad = 0;
  const char *zHow = "static";
  sqlite3 *db;
  int rc;

  if( argc==3 && strcmp(argv[1], "--load")==0 ){
    zLoad = argv[2];
    zHow = "load";
  }else if( argc!=1 ){
    fprintf(stderr, "usage: %s [--load MODULE]\n", argv[0]);
    return 2;
  }

  if( zLoad==0 ){
    /* Every connection opened from here on gets the functions. */
    rc = sqlite3_auto_extension((void(*)(void))sqlite3_utf8ext_init);
    if( rc!=SQLITE_OK ){ fprintf(stderr, "auto_extension: %d\n", rc); return 1; }
  }
  rc = sqlite3_open(":memory:", &db);
  if( rc!=SQLITE_OK ){ fprintf(stderr, "open: %s\n", sqlite3_errmsg(db)); return 1; }
  if( zLoad ){
    char *zErr = 0;
    sqlite3_enable_load_extension(db, 1);
    rc = sqlite3_load_extension(db, zLoad, 0, &zErr);
    if( rc!=SQLITE_OK ){
      printf("load %s: %s\n", zLoad, zErr ? zErr : sqlite3_errstr(rc));
      nFail++;
    }
    sqlite3_free(zErr);
  }
  if( nFail==0 ) test_functions(db);
  sqlite3_close(db);

  /* A second connection gets them too: registration is per process. */
  if( zLoad==0 ){
    rc = sqlite3_open(":memory:", &db);
    if( rc==SQLITE_OK ) check(db, "second-connection", "SELECT utf8_valid(x'FF')", "0");
    sqlite3_close(db);
    sqlite3_reset_auto_extension();
  }

  printf("embed (SQLite %s, %s): %d passed, %d failed\n",
         sqlite3_libversion(), zHow, nPass, nFail);
  return nFail!=0;
}
