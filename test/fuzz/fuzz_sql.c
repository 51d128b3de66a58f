/*
** test/fuzz/fuzz_sql.c - a libFuzzer target for the SQL functions of
** utf8ext, linked statically (SQLITE_CORE) and registered with
** sqlite3_auto_extension().
**
** The input is split at its last three NUL bytes into
**
**     VALUE \0 R \0 RULE \0 ENC
**
** (fewer NULs: the missing fields are absent and get defaults; VALUE may
** itself hold NUL bytes). For each input a fresh in-memory database is
** opened (UTF-16le when VALUE's length is odd, UTF-8 otherwise) and every
** function is called with VALUE bound as TEXT and as BLOB:
**
**   utf8_valid, utf8_fix with 1, 2 and 3 arguments, utf8_recode,
**   utf8_length, utf8_error_offset, utf8_error, utf8_check, utf8_mojibake,
**   utf8_unmojibake, utf8_encode
**   (of code points taken from VALUE), utf8ext_version, utf8ext_impl,
**   utf8_codepoints, and utf8_audit over a table named R (quoted) whose
**   columns hold VALUE and R, and over a WITHOUT ROWID table keyed by
**   (VALUE, R), whose pk literals must find their row again; on that
**   table utf8_repair(..., 'mojibake') changes as many values as
**   utf8_audit_summary counts, a second run none, and utf8_undo restores
**   every byte (or the repair is refused and nothing changed).
**
** Results are compared with the reference decoder (test/reference.c) and
** with each other: utf8_valid with the reference; utf8_fix(X) is
** well-formed and equals the reference repair (all rules, valid R), and is
** X itself when X is valid; an ill-formed R, an unknown RULE or ENC is an
** error naming the function; utf8_length == count(*) of utf8_codepoints ==
** the reference unit count; the bytes of utf8_codepoints concatenate to X;
** utf8_check fails iff utf8_valid is 0; utf8_audit reports exactly the
** stored TEXT values that are not valid, with the reference's offset.
**
** Any mismatch prints what differs and aborts; libFuzzer saves the input.
*/
#include <sqlite3.h>
#include "utf8ext.h"
#include "../reference.h"
#include "mojibake.h"
#include "charsets.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The parts of one fuzz input. */
typedef struct fuzz_args {
  const unsigned char *value; size_t nValue;
  const char *r;    size_t nR;    int hasR;
  const char *rule; size_t nRule; int hasRule;
  const char *enc;  size_t nEnc;  int hasEnc;
} fuzz_args;

/* One result of one query: its type and bytes, or its error. */
typedef struct sql_result {
  int rc;                  /* SQLITE_ROW with a row, else the error */
  int type;                /* sqlite3_column_type */
  unsigned char *z;        /* the value's bytes (malloc), or NULL */
  size_t n;
  sqlite3_int64 i;         /* the value as an integer */
  char zErr[256];          /* the error message */
} sql_result;

static const fuzz_args *current;   /* for failure reports */
static const char *db_encoding;    /* "UTF-8" or "UTF-16le" */

/*
** Print the input and what failed, and abort.
*/
static void fail(const char *zWhat, const char *zDetail){
  size_t i;
  fprintf(stderr, "fuzz_sql: %s: %s\nVALUE (%zu bytes):", zWhat,
          zDetail ? zDetail : "", current->nValue);
  for(i=0; i<current->nValue && i<256; i++) fprintf(stderr, " %02X", current->value[i]);
  fprintf(stderr, "\nR=%.*s RULE=%.*s ENC=%.*s\n", (int)current->nR,
          current->hasR ? current->r : "(none)", (int)current->nRule,
          current->hasRule ? current->rule : "(none)", (int)current->nEnc,
          current->hasEnc ? current->enc : "(none)");
  abort();
}

/*
** Split data at its last three NUL bytes.
*/
static void split_input(const unsigned char *data, size_t size, fuzz_args *a){
  const unsigned char *cut[3];
  int nCut = 0;
  size_t i = size;
  memset(a, 0, sizeof(*a));
  while( i>0 && nCut<3 ){
    i--;
    if( data[i]==0 ) cut[nCut++] = data+i;
  }
  a->value = data;
  a->nValue = nCut ? (size_t)(cut[nCut-1]-data) : size;
  /* cut[nCut-1] is the first separator, cut[0] the last. */
  if( nCut>=1 ){
    const unsigned char *end = nCut>=2 ? cut[nCut-2] : data+size;
    a->r = (const char*)cut[nCut-1]+1; a->nR = (size_t)(end-cut[nCut-1]-1); a->hasR = 1;
  }
  if( nCut>=2 ){
    const unsigned char *end = nCut>=3 ? cut[nCut-3] : data+size;
    a->rule = (const char*)cut[nCut-2]+1; a->nRule = (size_t)(end-cut[nCut-2]-1);
    a->hasRule = 1;
  }
  if( nCut>=3 ){
    a->enc = (const char*)cut[0]+1; a->nEnc = (size_t)(data+size-cut[0]-1);
    a->hasEnc = 1;
  }
}

/*
** Run zSql (one row expected, or an error) with ?1 the value (as BLOB
** when asBlob, else TEXT), ?2 R, ?3 RULE, ?4 ENC; fill *p.
*/
static void run1(sqlite3 *db, const char *zSql, const fuzz_args *a, int asBlob,
                 sql_result *p){
  sqlite3_stmt *pStmt = 0;
  int rc = sqlite3_prepare_v2(db, zSql, -1, &pStmt, 0);
  memset(p, 0, sizeof(*p));
  if( rc!=SQLITE_OK ){
    fprintf(stderr, "%s\n", sqlite3_errmsg(db));
    fail("prepare", zSql);
  }
  if( asBlob ){
    sqlite3_bind_blob64(pStmt, 1, a->value, a->nValue, SQLITE_STATIC);
  }else{
    sqlite3_bind_text64(pStmt, 1, (const char*)a->value, a->nValue,
                        SQLITE_STATIC, SQLITE_UTF8);
  }
  if( a->hasR ) sqlite3_bind_text64(pStmt, 2, a->r, a->nR, SQLITE_STATIC, SQLITE_UTF8);
  if( a->hasRule ) sqlite3_bind_text64(pStmt, 3, a->rule, a->nRule, SQLITE_STATIC, SQLITE_UTF8);
  if( a->hasEnc ) sqlite3_bind_text64(pStmt, 4, a->enc, a->nEnc, SQLITE_STATIC, SQLITE_UTF8);
  rc = sqlite3_step(pStmt);
  p->rc = rc;
  if( rc==SQLITE_ROW ){
    const void *z;
    p->type = sqlite3_column_type(pStmt, 0);
    z = p->type==SQLITE_BLOB ? sqlite3_column_blob(pStmt, 0)
                             : (const void*)sqlite3_column_text(pStmt, 0);
    p->n = (size_t)sqlite3_column_bytes(pStmt, 0);
    p->i = sqlite3_column_int64(pStmt, 0);
    p->z = malloc(p->n + 1);
    if( p->z==0 ) abort();
    if( p->n ) memcpy(p->z, z, p->n);
  }else{
    snprintf(p->zErr, sizeof(p->zErr), "%s", sqlite3_errmsg(db));
  }
  sqlite3_finalize(pStmt);
}

/* Free what run1() kept of a result. */
static void result_free(sql_result *p){ free(p->z); p->z = 0; }

/*
** Expect a row whose value is TEXT with exactly the bytes z[0..n).
*/
static void expect_text(const char *zWhat, sql_result *p,
                        const unsigned char *z, size_t n){
  if( p->rc!=SQLITE_ROW ) fail(zWhat, p->zErr);
  if( p->type!=SQLITE_TEXT ) fail(zWhat, "not TEXT");
  if( ref_first_error(p->z, p->n)!=p->n ) fail(zWhat, "result not well-formed");
  /* A UTF-16 database passes results through SQLite's own converter,
  ** which turns U+FFFE and U+FFFF into U+FFFD: compare bytes in UTF-8. */
  if( strcmp(db_encoding, "UTF-8")!=0 ) return;
  if( p->n!=n || (n && memcmp(p->z, z, n)!=0) ){
    size_t i;
    fprintf(stderr, "got:");
    for(i=0; i<p->n && i<64; i++) fprintf(stderr, " %02X", p->z[i]);
    fprintf(stderr, "\nwant:");
    for(i=0; i<n && i<64; i++) fprintf(stderr, " %02X", z[i]);
    fprintf(stderr, "\n");
    fail(zWhat, "wrong bytes");
  }
}

/*
** Expect an error whose message starts with zPrefix.
*/
static void expect_error(const char *zWhat, sql_result *p, const char *zPrefix){
  if( p->rc==SQLITE_ROW ) fail(zWhat, "no error");
  if( strncmp(p->zErr, zPrefix, strlen(zPrefix))!=0 ) fail(zWhat, p->zErr);
}

/*
** Index of option z[0..n) in azName (case-insensitive), or -1.
*/
static int option_index(const char *z, size_t n, const char *const *azName, int nName){
  int i;
  if( memchr(z, 0, n) ) return -1;
  for(i=0; i<nName; i++){
    if( strlen(azName[i])==n && sqlite3_strnicmp(z, azName[i], (int)n)==0 ) return i;
  }
  return -1;
}

/*
** The bytes column of utf8_codepoints(?1), concatenated in row order,
** must be s[0..n) (what the function saw).
*/
static void check_codepoints_concat(sqlite3 *db, const fuzz_args *a,
                                    int asBlob, const unsigned char *s, size_t n){
  sqlite3_stmt *pStmt = 0;
  size_t at = 0;
  int rc;
  if( sqlite3_prepare_v2(db, "SELECT bytes, offset FROM utf8_codepoints(?1)",
                         -1, &pStmt, 0)!=SQLITE_OK ){
    fail("prepare utf8_codepoints", sqlite3_errmsg(db));
  }
  if( asBlob ){
    sqlite3_bind_blob64(pStmt, 1, a->value, a->nValue, SQLITE_STATIC);
  }else{
    sqlite3_bind_text64(pStmt, 1, (const char*)a->value, a->nValue,
                        SQLITE_STATIC, SQLITE_UTF8);
  }
  while( (rc = sqlite3_step(pStmt))==SQLITE_ROW ){
    const unsigned char *z = sqlite3_column_blob(pStmt, 0);
    size_t k = (size_t)sqlite3_column_bytes(pStmt, 0);
    if( (size_t)sqlite3_column_int64(pStmt, 1)!=at ) fail("utf8_codepoints offset", 0);
    if( k<1 || k>4 || at+k>n || memcmp(z, s+at, k)!=0 ){
      fail("utf8_codepoints bytes", 0);
    }
    at += k;
  }
  if( rc!=SQLITE_DONE ) fail("utf8_codepoints", sqlite3_errmsg(db));
  if( at!=n ) fail("utf8_codepoints bytes do not cover X", 0);
  sqlite3_finalize(pStmt);
}

/*
** The scalar functions, with the value bound as TEXT or as BLOB.
*/
static void check_scalars(sqlite3 *db, const fuzz_args *a, int asBlob){
  static const char *const azRule[] = { "subpart", "run", "byte" };
  static const char *const azEnc[] = { "cp1252", "latin1", "cesu8", "mutf8" };
  const unsigned char *s = a->value;
  size_t n = a->nValue;
  size_t first, units;
  int valid;
  size_t cap;
  unsigned char *want;
  sql_result seen, r;

  /* What the functions see: in a UTF-16 database SQLite converts bound
  ** TEXT to UTF-16 and back (ill-formed bytes become U+FFFD its way). */
  run1(db, "SELECT ?1", a, asBlob, &seen);
  if( seen.rc!=SQLITE_ROW ) fail("SELECT ?1", seen.zErr);
  s = seen.z;
  n = seen.n;
  first = ref_first_error(s, n);
  units = ref_count_units(s, n);
  valid = first==n;
  cap = 3*n + n*(3*a->nR>3 ? 3*a->nR : 3) + 8;  /* R may grow in UTF-16 */
  want = malloc(cap);
  if( want==0 ) abort();
  if( !asBlob && sqlite3_strnicmp(db_encoding, "UTF-8", 6)==0
   && (n!=a->nValue || memcmp(s, a->value, n)!=0) ){
    fail("bound TEXT changed in a UTF-8 database", 0);
  }


  run1(db, "SELECT utf8_valid(?1)", a, asBlob, &r);
  if( r.rc!=SQLITE_ROW || r.i!=valid ) fail("utf8_valid", r.zErr);
  result_free(&r);

  run1(db, "SELECT utf8_fix(?1)", a, asBlob, &r);
  expect_text("utf8_fix(X)", &r, want,
              ref_fix(s, n, (const unsigned char*)"\xEF\xBF\xBD", 3, 0, want));
  if( valid && strcmp(db_encoding, "UTF-8")==0 && (r.n!=n || memcmp(r.z, s, n)) ){
    fail("utf8_fix(valid X)!=X", 0);
  }
  result_free(&r);

  if( a->hasR ){
    sql_result seenR;
    int rValid;
    run1(db, "SELECT ?2", a, asBlob, &seenR);   /* R as the function sees it */
    if( seenR.rc!=SQLITE_ROW ) fail("SELECT ?2", seenR.zErr);
    rValid = ref_first_error(seenR.z, seenR.n)==seenR.n;
    run1(db, "SELECT utf8_fix(?1, ?2)", a, asBlob, &r);
    if( rValid ){
      expect_text("utf8_fix(X, R)", &r, want,
                  ref_fix(s, n, seenR.z, seenR.n, 0, want));
    }else{
      expect_error("utf8_fix(X, bad R)", &r, "utf8_fix: ");
    }
    result_free(&r);
    if( a->hasRule ){
      int rule = option_index(a->rule, a->nRule, azRule, 3);
      run1(db, "SELECT utf8_fix(?1, ?2, ?3)", a, asBlob, &r);
      if( rValid && rule>=0 ){
        expect_text("utf8_fix(X, R, RULE)", &r, want,
                    ref_fix(s, n, seenR.z, seenR.n, rule, want));
      }else{
        expect_error("utf8_fix(X, R, bad RULE)", &r, "utf8_fix: ");
      }
      result_free(&r);
    }
    result_free(&seenR);
  }
  if( a->hasEnc ){
    int enc = option_index(a->enc, a->nEnc, azEnc, 4);
    run1(db, "SELECT utf8_recode(?1, ?4)", a, asBlob, &r);
    if( enc>=0 ){
      expect_text("utf8_recode", &r, want, ref_recode(s, n, enc, want));
      if( ref_first_error(r.z, r.n)!=r.n ) fail("utf8_recode output ill-formed", 0);
    }else if( (a->nEnc==5 && sqlite3_strnicmp(a->enc, "utf-8", 5)==0)
           || (a->nEnc==4 && sqlite3_strnicmp(a->enc, "utf8", 4)==0) ){
      /* 'utf-8': damaged UTF-8 mended, as utf8_fix(X) mends it */
      expect_text("utf8_recode(X, 'utf-8')", &r, want,
                  ref_fix(s, n, (const unsigned char*)"\xEF\xBF\xBD", 3, 0, want));
    }else if( utf8_charset_lookup(a->enc, a->nEnc)>=0 ){
      /* a legacy charset's label (core/charsets.h, checked byte for byte
      ** against Python's codecs by the charsets suite): well-formed TEXT,
      ** and a well-formed X unchanged */
      if( r.rc!=SQLITE_ROW || r.type!=SQLITE_TEXT ) fail("utf8_recode(X, charset)", r.zErr);
      if( ref_first_error(r.z, r.n)!=r.n ) fail("utf8_recode(X, charset) output ill-formed", 0);
      /* In a UTF-16 database SQLite's own converter turns U+FFFE and
      ** U+FFFF into U+FFFD on the way out, as for utf8_fix above. */
      if( valid && strcmp(db_encoding, "UTF-8")==0
       && (r.n!=n || (n && memcmp(r.z, s, n)!=0)) ){
        fail("utf8_recode(X, charset) changed a well-formed X", 0);
      }
    }else{
      expect_error("utf8_recode(X, bad ENC)", &r, "utf8_recode: ");
    }
    result_free(&r);
  }

  run1(db, "SELECT utf8_length(?1)", a, asBlob, &r);
  if( r.rc!=SQLITE_ROW || (size_t)r.i!=units ) fail("utf8_length", r.zErr);
  result_free(&r);
  run1(db, "SELECT count(*) FROM utf8_codepoints(?1)", a, asBlob, &r);
  if( r.rc!=SQLITE_ROW || (size_t)r.i!=units ) fail("count(*) utf8_codepoints", r.zErr);
  result_free(&r);
  /* Characters of utf8_fix(X) (subpart rule) = units of X. */
  run1(db, "SELECT utf8_length(utf8_fix(?1)) = utf8_length(?1)"
           " AND utf8_valid(utf8_fix(?1))", a, asBlob, &r);
  if( r.rc!=SQLITE_ROW || r.i!=1 ) fail("utf8_length(utf8_fix(X))", r.zErr);
  result_free(&r);

  run1(db, "SELECT utf8_error_offset(?1)", a, asBlob, &r);
  if( r.rc!=SQLITE_ROW ) fail("utf8_error_offset", r.zErr);
  if( valid ? r.type!=SQLITE_NULL : (r.type!=SQLITE_INTEGER || (size_t)r.i!=first) ){
    fail("utf8_error_offset", "wrong offset");
  }
  result_free(&r);

  run1(db, "SELECT utf8_error(?1)", a, asBlob, &r);
  if( r.rc!=SQLITE_ROW || (r.type==SQLITE_NULL)!=valid ) fail("utf8_error", r.zErr);
  result_free(&r);

  /* utf8_unmojibake: X itself when not valid, unless X is UTF-16 or
  ** UTF-32 without a BOM (core/widetext.c), which it decodes whole when
  ** what it decodes to is settled (rule 7 of docs/mojibake.md: a second
  ** call leaves it alone, utf8_mojibake of it is NULL) and else leaves
  ** as it is; else well-formed and never longer (but by half: C1
  ** controls read as Windows-1252); utf8_mojibake is NULL
  ** exactly when nothing changed. */
  run1(db, "SELECT utf8_unmojibake(?1)", a, asBlob, &r);
  if( r.rc!=SQLITE_ROW ) fail("utf8_unmojibake", r.zErr);
  if( (asBlob || strcmp(db_encoding, "UTF-8")==0) && r.type!=SQLITE_NULL ){
    size_t wide_len = 0;
    int wide = utf8_moji_wide(s, n, 0, &wide_len)!=UTF8_MOJI_COUNT;
    if( wide ){
      unsigned char *d = malloc(wide_len + 1);
      fuzz_args b = *a;
      sql_result m;
      if( d==0 ) abort();
      utf8_moji_wide(s, n, d, &wide_len);
      b.value = d;
      b.nValue = wide_len;
      run1(db, "SELECT utf8_mojibake(?1) IS NULL", &b, 0, &m);
      if( m.rc!=SQLITE_ROW ) fail("utf8_mojibake(decoded wide X)", m.zErr);
      if( m.i ){
        if( r.n!=wide_len || memcmp(r.z, d, wide_len)!=0
         || ref_first_error(r.z, r.n)!=r.n ){
          fail("utf8_unmojibake(wide) output", 0);
        }
      }else if( r.n!=n || (n && memcmp(r.z, s, n)) ){
        fail("utf8_unmojibake(wide, decoding not settled) changed X", 0);
      }
      result_free(&m);
      free(d);
    }
    if( !wide && !valid && (r.n!=n || (n && memcmp(r.z, s, n))) ) fail("utf8_unmojibake(invalid) changed X", 0);
    /* undoing shrinks the text, but for Windows-1252 read as Latin-1,
    ** whose C1 controls (2 bytes) become “ ” € (3): at most by half */
    if( !wide && valid && (r.n>n+n/2 || ref_first_error(r.z, r.n)!=r.n) ) fail("utf8_unmojibake output", 0);
  }
  result_free(&r);
  run1(db, "SELECT (utf8_mojibake(?1) IS NULL)"
           " = (CAST(utf8_unmojibake(?1) AS BLOB) IS CAST(?1 AS BLOB))", a, asBlob, &r);
  if( r.rc!=SQLITE_ROW || r.i!=1 ) fail("utf8_mojibake and utf8_unmojibake disagree", r.zErr);
  result_free(&r);

  run1(db, "SELECT utf8_check(?1)", a, asBlob, &r);
  if( valid ){
    if( r.rc!=SQLITE_ROW ) fail("utf8_check(valid)", r.zErr);
    if( r.type!=(asBlob ? SQLITE_BLOB : SQLITE_TEXT) ) fail("utf8_check type", 0);
    if( (asBlob || strcmp(db_encoding, "UTF-8")==0)
     && (r.n!=n || (n && memcmp(r.z, s, n))) ) fail("utf8_check bytes", 0);
  }else{
    expect_error("utf8_check(invalid)", &r, "utf8_check: ");
  }
  result_free(&r);

  /* Concatenated bytes of utf8_codepoints give X back. */
  check_codepoints_concat(db, a, asBlob, s, n);
  run1(db, "SELECT count(*) FROM utf8_codepoints(?1)"
           " WHERE valid != (error IS NULL) OR valid != (codepoint IS NOT NULL)"
           " OR length != length(bytes) OR (valid AND utf8_encode(codepoint) != char)"
           " OR length NOT BETWEEN 1 AND 4", a, asBlob, &r);
  if( r.rc!=SQLITE_ROW || r.i!=0 ) fail("utf8_codepoints rows", r.zErr);
  result_free(&r);

  /* utf8_encode of integers made from the value's bytes. */
  if( n>=3 ){
    sqlite3_int64 c = ((sqlite3_int64)s[0]<<16 | s[1]<<8 | s[2]) - (s[0]&0x80 ? 0x10000 : 0);
    char zSql[128];
    unsigned char enc[5];
    snprintf(zSql, sizeof(zSql), "SELECT utf8_encode(%lld, 65)", (long long)c);
    run1(db, zSql, a, asBlob, &r);
    if( c<0 || c>0x10FFFF || (c>=0xD800 && c<=0xDFFF) ){
      expect_error("utf8_encode(bad)", &r, "utf8_encode: ");
    }else{
      size_t k = ref_encode((uint32_t)c, enc);
      enc[k] = 'A';
      expect_text("utf8_encode", &r, enc, k+1);
    }
    result_free(&r);
  }
  run1(db, "SELECT utf8ext_version() || utf8ext_impl()", a, asBlob, &r);
  if( r.rc!=SQLITE_ROW || r.type!=SQLITE_TEXT ) fail("version/impl", r.zErr);
  result_free(&r);
  result_free(&seen);
  free(want);
}

/*
** Run zSql (no bindings) and fail on error.
*/
static void exec_ok(sqlite3 *db, const char *zSql){
  char *zErr = 0;
  if( sqlite3_exec(db, zSql, 0, 0, &zErr)!=SQLITE_OK ){
    fprintf(stderr, "%s\n", zErr ? zErr : "?");
    fail("exec", zSql);
  }
}

/*
** utf8_audit over a table named R (or "t"), with the value as TEXT in one
** column, as a BLOB in another and R in a third: exactly the stored TEXT
** values that are not well-formed are reported, at the reference's
** offset, with the right count.
*/
static void check_audit(sqlite3 *db, const fuzz_args *a){
  char *zName = 0, *zSql, *zCol;
  sqlite3_stmt *pIns = 0, *pAudit = 0;
  sql_result r;
  int rc, nRows = 0;
  if( a->hasR && a->nR>0 && memchr(a->r, 0, a->nR)==0
   && sqlite3_strnicmp(a->r, "sqlite_", 7)!=0
   && !(a->nR==2 && sqlite3_strnicmp(a->r, "wr", 2)==0) ){  /* see check_audit_pk */
    zName = sqlite3_mprintf("%.*s", (int)a->nR, a->r);
  }else{
    zName = sqlite3_mprintf("t");
  }
  /* The third column is named RULE (quoted) when there is one, and when
  ** it does not take a name of the rowid, which the checks below read. */
  zCol = a->hasRule && a->nRule>0 && memchr(a->rule, 0, a->nRule)==0
       ? sqlite3_mprintf("%.*s", (int)a->nRule, a->rule) : sqlite3_mprintf("r");
  if( zCol && (sqlite3_stricmp(zCol, "rowid")==0 || sqlite3_stricmp(zCol, "_rowid_")==0
            || sqlite3_stricmp(zCol, "oid")==0) ){
    sqlite3_free(zCol);
    zCol = sqlite3_mprintf("r");
  }
  zSql = sqlite3_mprintf("CREATE TABLE \"%w\"(v TEXT, b BLOB, \"%w\" TEXT)",
                         zName, zCol);
  sqlite3_free(zCol);
  if( sqlite3_exec(db, zSql, 0, 0, 0)!=SQLITE_OK ){
    /* e.g. a column name repeated in another case: use plain names */
    sqlite3_free(zSql);
    zSql = sqlite3_mprintf("CREATE TABLE \"%w\"(v TEXT, b BLOB, r TEXT)", zName);
    exec_ok(db, zSql);
  }
  sqlite3_free(zSql);
  {
    /* The name as stored: a UTF-16 database has converted it. */
    sqlite3_stmt *pName = 0;
    sqlite3_prepare_v2(db, "SELECT name FROM sqlite_schema", -1, &pName, 0);
    if( sqlite3_step(pName)!=SQLITE_ROW ) fail("sqlite_schema", sqlite3_errmsg(db));
    sqlite3_free(zName);
    zName = sqlite3_mprintf("%s", sqlite3_column_text(pName, 0));
    sqlite3_finalize(pName);
  }
  zSql = sqlite3_mprintf("INSERT INTO \"%w\" VALUES(?1, ?2, ?3)", zName);
  if( sqlite3_prepare_v2(db, zSql, -1, &pIns, 0)!=SQLITE_OK ) fail("prepare insert", zSql);
  sqlite3_free(zSql);
  sqlite3_bind_text64(pIns, 1, (const char*)a->value, a->nValue, SQLITE_STATIC, SQLITE_UTF8);
  sqlite3_bind_blob64(pIns, 2, a->value, a->nValue, SQLITE_STATIC);
  if( a->hasR ) sqlite3_bind_text64(pIns, 3, a->r, a->nR, SQLITE_STATIC, SQLITE_UTF8);
  if( sqlite3_step(pIns)!=SQLITE_DONE ) fail("insert", sqlite3_errmsg(db));
  sqlite3_finalize(pIns);

  zSql = sqlite3_mprintf(
      "SELECT a.col, a.offset, a.errors, a.error, t.rowid"
      " FROM utf8_audit(?1) AS a LEFT JOIN \"%w\" AS t ON t.rowid=a.rowid",
      zName);
  if( sqlite3_prepare_v2(db, zSql, -1, &pAudit, 0)!=SQLITE_OK ) fail("prepare audit", zSql);
  sqlite3_free(zSql);
  sqlite3_bind_text(pAudit, 1, zName, -1, SQLITE_STATIC);
  while( (rc = sqlite3_step(pAudit))==SQLITE_ROW ){
    nRows++;
    if( sqlite3_column_type(pAudit, 4)!=SQLITE_INTEGER ) fail("audit rowid", 0);
  }
  if( rc!=SQLITE_DONE ) fail("utf8_audit", sqlite3_errmsg(db));
  sqlite3_finalize(pAudit);

  /* The same count the slow way: every stored TEXT value, checked by
  ** the reference (a UTF-16 database has converted what was stored). */
  {
    sqlite3_stmt *pAll = 0;
    int nWant = 0, i;
    zSql = sqlite3_mprintf("SELECT * FROM \"%w\"", zName);
    if( sqlite3_prepare_v2(db, zSql, -1, &pAll, 0)!=SQLITE_OK ) fail("prepare all", zSql);
    sqlite3_free(zSql);
    while( sqlite3_step(pAll)==SQLITE_ROW ){
      for(i=0; i<sqlite3_column_count(pAll); i++){
        if( sqlite3_column_type(pAll, i)==SQLITE_TEXT ){
          const unsigned char *z = sqlite3_column_text(pAll, i);
          size_t n = (size_t)sqlite3_column_bytes(pAll, i);
          if( ref_first_error(z, n)!=n ) nWant++;
        }
      }
    }
    sqlite3_finalize(pAll);
    if( nRows!=nWant ){
      char zMsg[64];
      snprintf(zMsg, sizeof(zMsg), "%d rows, expected %d", nRows, nWant);
      fail("utf8_audit row count", zMsg);
    }
  }
  /* Offsets, counts and context for the value column. */
  zSql = sqlite3_mprintf(
      "SELECT count(*) FROM utf8_audit(?1) AS a JOIN \"%w\" AS t"
      " ON t.rowid=a.rowid WHERE a.col='v' AND (a.offset IS NOT"
      " utf8_error_offset(t.v) OR utf8_valid(a.context)=0 OR a.error IS NULL"
      " OR a.errors < 1 OR a.errors > utf8_length(t.v))", zName);
  {
    fuzz_args b = *a;
    b.value = (const unsigned char*)zName;
    b.nValue = strlen(zName);
    run1(db, zSql, &b, 0, &r);
    if( r.rc!=SQLITE_ROW || r.i!=0 ) fail("utf8_audit rows", r.zErr);
    result_free(&r);
  }
  sqlite3_free(zSql);
  sqlite3_free(zName);
}

/*
** A WITHOUT ROWID table keyed by (VALUE as TEXT, R): every pk literal
** utf8_audit gives must find its row again when pasted into a WHERE
** clause, in UTF-8 and UTF-16 databases.
*/
static void check_audit_pk(sqlite3 *db, const fuzz_args *a){
  sqlite3_stmt *pStmt = 0, *pAudit = 0;
  int rc;
  exec_ok(db, "CREATE TABLE wr(k TEXT, j, v TEXT, PRIMARY KEY(k, j)) WITHOUT ROWID");
  if( sqlite3_prepare_v2(db, "INSERT INTO wr VALUES(?1, coalesce(?2, 0), ?1)",
                         -1, &pStmt, 0)!=SQLITE_OK ){
    fail("prepare wr", sqlite3_errmsg(db));
  }
  sqlite3_bind_text64(pStmt, 1, (const char*)a->value, a->nValue, SQLITE_STATIC, SQLITE_UTF8);
  if( a->hasR ) sqlite3_bind_text64(pStmt, 2, a->r, a->nR, SQLITE_STATIC, SQLITE_UTF8);
  if( sqlite3_step(pStmt)!=SQLITE_DONE ) fail("insert wr", sqlite3_errmsg(db));
  sqlite3_finalize(pStmt);
  if( sqlite3_prepare_v2(db, "SELECT pk FROM utf8_audit('wr')", -1, &pAudit, 0)
      !=SQLITE_OK ){
    fail("prepare audit wr", sqlite3_errmsg(db));
  }
  while( (rc = sqlite3_step(pAudit))==SQLITE_ROW ){
    char *zSql = sqlite3_mprintf("SELECT count(*) FROM wr WHERE (k, j) = %s",
                                 sqlite3_column_text(pAudit, 0));
    sqlite3_stmt *pFind = 0;
    if( sqlite3_prepare_v2(db, zSql, -1, &pFind, 0)!=SQLITE_OK ){
      fail("pk literal does not parse", zSql);
    }
    if( sqlite3_step(pFind)!=SQLITE_ROW || sqlite3_column_int(pFind, 0)!=1 ){
      fail("pk literal does not find its row", zSql);
    }
    sqlite3_finalize(pFind);
    sqlite3_free(zSql);
  }
  if( rc!=SQLITE_DONE ) fail("utf8_audit wr", sqlite3_errmsg(db));
  sqlite3_finalize(pAudit);
}

/* One integer from zSql, or -1 after an error (its message into zErr). */
static sqlite3_int64 one_int(sqlite3 *db, const char *zSql, char *zErr,
                             int nErr){
  sqlite3_stmt *pStmt = 0;
  sqlite3_int64 v = -1;
  if( sqlite3_prepare_v2(db, zSql, -1, &pStmt, 0)!=SQLITE_OK ) fail("prepare", zSql);
  if( sqlite3_step(pStmt)==SQLITE_ROW ) v = sqlite3_column_int64(pStmt, 0);
  else snprintf(zErr, nErr, "%s", sqlite3_errmsg(db));
  sqlite3_finalize(pStmt);
  return v;
}

/* Every byte of table wr, for comparing before and after. */
static char *dump_wr(sqlite3 *db){
  sqlite3_stmt *pStmt = 0;
  char *z = 0;
  if( sqlite3_prepare_v2(db, "SELECT group_concat(typeof(k)||hex(k)||typeof(j)"
      "||hex(j)||typeof(v)||hex(v), ',') FROM wr", -1, &pStmt, 0)!=SQLITE_OK
   || sqlite3_step(pStmt)!=SQLITE_ROW ){
    fail("dump wr", sqlite3_errmsg(db));
  }
  z = sqlite3_mprintf("%s", sqlite3_column_text(pStmt, 0));
  sqlite3_finalize(pStmt);
  return z;
}

/*
** utf8_repair(wr, 'mojibake') on the table check_audit_pk() filled (the
** value as key and as column): it changes exactly as many values as
** utf8_audit_summary counts as mojibake, a second run changes nothing,
** and utf8_undo puts every byte back; or it is refused and nothing
** changed.
*/
static void check_moji_repair(sqlite3 *db){
  char zErr[256] = "";
  char *zBefore = dump_wr(db), *zAfter;
  sqlite3_int64 nCount = one_int(db, "SELECT sum(mojibake) FROM"
                                 " utf8_audit_summary('wr')", zErr, sizeof(zErr));
  sqlite3_int64 n = one_int(db, "SELECT utf8_repair('wr', 'mojibake')", zErr,
                            sizeof(zErr));
  if( nCount<0 ) fail("summary of wr", zErr);
  if( n<0 ){
    if( strncmp(zErr, "utf8_repair: ", 13)!=0 ) fail("utf8_repair mojibake", zErr);
    zAfter = dump_wr(db);
    if( strcmp(zBefore, zAfter)!=0 ) fail("a refused repair changed wr", zErr);
  }else{
    if( n!=nCount ) fail("utf8_repair mojibake count differs from the summary", 0);
    if( one_int(db, "SELECT utf8_repair('wr', 'mojibake')", zErr, sizeof(zErr))!=0 ){
      fail("utf8_repair mojibake is not idempotent", zErr);
    }
    if( one_int(db, "SELECT sum(mojibake) FROM utf8_audit_summary('wr')",
                zErr, sizeof(zErr))!=0 ){
      fail("mojibake counted after the repair", zErr);
    }
    if( one_int(db, "SELECT utf8_undo('wr')", zErr, sizeof(zErr))!=n ){
      fail("utf8_undo after mojibake", zErr);
    }
    zAfter = dump_wr(db);
    if( strcmp(zBefore, zAfter)!=0 ) fail("undo of mojibake is not exact", zAfter);
  }
  sqlite3_free(zBefore);
  sqlite3_free(zAfter);
}

/*
** Open a database with the extension (auto extension) in encoding zEnc.
*/
static sqlite3 *open_db(const char *zEnc){
  sqlite3 *db = 0;
  char *zSql;
  if( sqlite3_open(":memory:", &db)!=SQLITE_OK ) fail("open", sqlite3_errmsg(db));
  zSql = sqlite3_mprintf("PRAGMA encoding='%q'", zEnc);
  exec_ok(db, zSql);
  sqlite3_free(zSql);
  return db;
}

int LLVMFuzzerInitialize(int *argc, char ***argv){
  (void)argc; (void)argv;
  sqlite3_auto_extension((void(*)(void))sqlite3_utf8ext_init);
  return 0;
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size){
  fuzz_args a;
  sqlite3 *db;
  split_input(data, size, &a);
  current = &a;
  db_encoding = a.nValue & 1 ? "UTF-16le" : "UTF-8";
  db = open_db(db_encoding);
  check_scalars(db, &a, 0);
  check_scalars(db, &a, 1);
  check_audit(db, &a);
  check_audit_pk(db, &a);
  check_moji_repair(db);
  if( sqlite3_close(db)!=SQLITE_OK ) fail("close", sqlite3_errmsg(db));
  return 0;
}
