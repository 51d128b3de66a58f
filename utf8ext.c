/*
** utf8ext.c - the SQLite glue of utf8ext: entry points, registration, and
** the scalar functions. The UTF-8 engine itself lives in core/ and knows
** nothing of SQLite; this file knows nothing of bit tricks.
**
** utf8ext checks, decodes and repairs UTF-8 exactly as RFC 3629 and the
** Unicode Standard (3.9) define it. SQLite never checks that TEXT is UTF-8;
** with this extension loaded:
**
**     .load ./utf8ext
**     SELECT utf8_valid(x'C080');                       -- 0 (overlong NUL)
**     SELECT utf8_fix(x'61F18080E180C262806380BF64');   -- a���b�c��d
**     SELECT * FROM utf8_codepoints('h€');              -- one row per unit
**     CREATE TABLE t(x TEXT CHECK (utf8_valid(x)));     -- bad text stays out
**
** WHAT EVERY FUNCTION READS
**
** A BLOB's bytes (read as a blob, never through a text conversion), TEXT's
** stored bytes, a number's text form. NULL gives NULL. The length comes
** from sqlite3_value_bytes(), so an embedded NUL is an ordinary character.
**
** THE FUNCTIONS
**
**     utf8_valid(X)            1 if X is well-formed UTF-8, else 0
**     utf8_fix(X [,R [,RULE]]) X with each ill-formed unit replaced by R
**                              (default U+FFFD); RULE 'subpart', 'run', 'byte'
**     utf8_length(X)           number of units (characters + ill-formed units)
**     utf8_error_offset(X)     byte offset of the first ill-formed unit
**     utf8_error(X)            "overlong at byte 3: C0", or NULL
**     utf8_check(X)            X unchanged, or an error carrying utf8_error(X)
**     utf8_encode(C, ...)      the text of code points C, strictly checked
**     utf8_recode(X, ENC)      ill-formed units decoded as ENC instead
**     utf8ext_version()        this extension's version
**     utf8ext_impl()           the validator implementation in use
**     utf8_codepoints(X)       table: one row per unit (utf8ext_codepoints.c)
**     utf8_audit(TABLE [,SCHEMA])  table: every ill-formed stored value
**                              (utf8ext_audit.c)
**
** Errors are SQL errors whose message starts with the function's name. An
** option (R, RULE, ENC) that is not valid is an error even when X is NULL
** or well-formed; a NULL option gives NULL.
*/
#include "utf8ext_glue.h"
#include "utf8ext.h"

#include <stdarg.h>
#include <string.h>

SQLITE_EXTENSION_INIT1

/*
** The module is built with hidden visibility: only the entry points are
** exported, so the core's names never clash with a host program's.
*/
#if defined(_WIN32)
# define UTF8EXT_EXPORT __declspec(dllexport)
#elif defined(__GNUC__)
# define UTF8EXT_EXPORT __attribute__((visibility("default")))
#else
# define UTF8EXT_EXPORT
#endif

/*
** Read the bytes of v; see utf8ext_glue.h. sqlite3_value_blob() returns
** NULL for an empty BLOB, so an empty value gets a pointer to "" instead.
*/
int utf8ext_value_bytes(sqlite3_value *v, const unsigned char **pz,
                        sqlite3_int64 *pn){
  const unsigned char *z;
  switch( sqlite3_value_type(v) ){
    case SQLITE_NULL:
      return 0;
    case SQLITE_BLOB:
      z = (const unsigned char*)sqlite3_value_blob(v);
      break;
    default:
      z = sqlite3_value_text(v);
      break;
  }
  *pn = sqlite3_value_bytes(v);
  if( z==0 ){
    if( *pn>0 ) return -1;
    z = (const unsigned char*)"";
  }
  *pz = z;
  return 1;
}

/*
** Read argument v for the function in ctx. Returns 1 with the bytes, 0 for
** NULL, and -1 after reporting an allocation failure to ctx.
*/
static int arg_bytes(sqlite3_context *ctx, sqlite3_value *v,
                     const unsigned char **pz, sqlite3_int64 *pn){
  int rc = utf8ext_value_bytes(v, pz, pn);
  if( rc<0 ) sqlite3_result_error_nomem(ctx);
  return rc;
}

/*
** The longest value this connection accepts (SQLITE_LIMIT_LENGTH).
*/
static sqlite3_int64 length_limit(sqlite3_context *ctx){
  return sqlite3_limit(sqlite3_context_db_handle(ctx), SQLITE_LIMIT_LENGTH, -1);
}

/*
** Set an error message "<function>: <message>" on ctx.
*/
static void result_errorf(sqlite3_context *ctx, const char *zFormat, ...){
  va_list ap;
  char *zMsg;
  va_start(ap, zFormat);
  zMsg = sqlite3_vmprintf(zFormat, ap);
  va_end(ap);
  if( zMsg==0 ){
    sqlite3_result_error_nomem(ctx);
  }else{
    sqlite3_result_error(ctx, zMsg, -1);
    sqlite3_free(zMsg);
  }
}

/*
** Build a result of outLen bytes with the writer fill(): the size is
** checked against SQLITE_LIMIT_LENGTH before anything is allocated, so a
** result that would pass it is "string or blob too big", never a cut.
*/
typedef struct text_writer text_writer;
struct text_writer {
  const unsigned char *z;        /* the input */
  size_t n;                      /* its length */
  const unsigned char *r;        /* utf8_fix: the replacement */
  size_t rlen;                   /* utf8_fix: its length */
  int option;                    /* utf8_fix_rule or utf8_recode_enc */
  size_t (*write)(const text_writer*, unsigned char *out);
};

static size_t write_fix(const text_writer *w, unsigned char *out){
  return utf8_fix(w->z, w->n, w->r, w->rlen, (utf8_fix_rule)w->option, out);
}

static size_t write_recode(const text_writer *w, unsigned char *out){
  return utf8_recode(w->z, w->n, (utf8_recode_enc)w->option, out);
}

/*
** Return w's output as TEXT. first_error is the offset of the first
** ill-formed unit (the prefix before it is copied as it is).
*/
static void result_written(sqlite3_context *ctx, text_writer *w,
                           size_t first_error){
  text_writer tail = *w;
  size_t limit = (size_t)length_limit(ctx);
  size_t len;
  unsigned char *out;
  tail.z = w->z + first_error;
  tail.n = w->n - first_error;
  len = tail.write(&tail, 0);
  if( len>limit || first_error>limit-len ){
    sqlite3_result_error_toobig(ctx);
    return;
  }
  out = sqlite3_malloc64(first_error + len + 1);
  if( out==0 ){
    sqlite3_result_error_nomem(ctx);
    return;
  }
  memcpy(out, w->z, first_error);
  tail.write(&tail, out + first_error);
  sqlite3_result_text64(ctx, (const char*)out, first_error+len,
                        sqlite3_free, SQLITE_UTF8);
}

/*
** utf8_valid(X): 1 if X is well-formed UTF-8, 0 if not, NULL for NULL.
*/
static void validFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv){
  const unsigned char *z;
  sqlite3_int64 n;
  (void)argc;
  switch( sqlite3_value_type(argv[0]) ){
    case SQLITE_INTEGER:
    case SQLITE_FLOAT:
      /* The text form of a number is ASCII: no need to make it. */
      sqlite3_result_int(ctx, 1);
      return;
  }
  if( arg_bytes(ctx, argv[0], &z, &n)<=0 ) return;
  sqlite3_result_int(ctx, utf8_is_valid(z, (size_t)n));
}

/*
** True if the option v, whose text is z, has a NUL byte: its name is then
** none of the known ones, though a C comparison would stop at the NUL.
*/
static int option_has_nul(sqlite3_value *v, const char *z){
  return (sqlite3_int64)strlen(z)!=sqlite3_value_bytes(v);
}

/*
** Parse the RULE argument of utf8_fix. Returns 1 with *rule set, 0 for
** NULL (the result is NULL), -1 after reporting an unknown rule.
*/
static int parse_rule(sqlite3_context *ctx, sqlite3_value *v, utf8_fix_rule *rule){
  const char *z;
  if( sqlite3_value_type(v)==SQLITE_NULL ) return 0;
  z = (const char*)sqlite3_value_text(v);
  if( z==0 ){ sqlite3_result_error_nomem(ctx); return -1; }
  if( option_has_nul(v, z) ){
    result_errorf(ctx, "utf8_fix: unknown RULE (it contains a NUL byte): "
                       "use 'subpart', 'run' or 'byte'");
    return -1;
  }
  if( sqlite3_stricmp(z, "subpart")==0 ){ *rule = UTF8_FIX_SUBPART; return 1; }
  if( sqlite3_stricmp(z, "run")==0 ){ *rule = UTF8_FIX_RUN; return 1; }
  if( sqlite3_stricmp(z, "byte")==0 ){ *rule = UTF8_FIX_BYTE; return 1; }
  result_errorf(ctx, "utf8_fix: unknown RULE '%s': use 'subpart', 'run' or 'byte'", z);
  return -1;
}

/*
** utf8_fix(X), utf8_fix(X, R), utf8_fix(X, R, RULE): X with every
** ill-formed unit replaced by R (U+FFFD when not given), one replacement
** per unit, per run of units or per byte. Well-formed X comes back byte for
** byte. Always TEXT.
*/
static void fixFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv){
  static const unsigned char fffd[] = { 0xEF, 0xBF, 0xBD };
  text_writer w;
  const unsigned char *z;
  sqlite3_int64 n, rlen = 3;
  utf8_fix_rule rule = UTF8_FIX_SUBPART;
  size_t k;
  int rc;

  w.r = fffd;
  if( argc>=2 ){
    rc = arg_bytes(ctx, argv[1], &w.r, &rlen);
    if( rc<0 ) return;
    if( rc>0 && !utf8_is_valid(w.r, (size_t)rlen) ){
      sqlite3_result_error(ctx,
          "utf8_fix: the replacement R is not well-formed UTF-8", -1);
      return;
    }
    if( argc>=3 && parse_rule(ctx, argv[2], &rule)<0 ) return;
    if( rc==0 || (argc>=3 && sqlite3_value_type(argv[2])==SQLITE_NULL) ) return;
  }
  if( arg_bytes(ctx, argv[0], &z, &n)<=0 ) return;
  k = utf8_find_error(z, (size_t)n);
  if( k==(size_t)n ){
    sqlite3_result_text64(ctx, (const char*)z, (sqlite3_uint64)n,
                          SQLITE_TRANSIENT, SQLITE_UTF8);
    return;
  }
  w.z = z;
  w.n = (size_t)n;
  w.rlen = (size_t)rlen;
  w.option = (int)rule;
  w.write = write_fix;
  result_written(ctx, &w, k);
}

/*
** Parse the ENC argument of utf8_recode, as parse_rule() does RULE.
*/
static int parse_encoding(sqlite3_context *ctx, sqlite3_value *v,
                          utf8_recode_enc *enc){
  static const struct { const char *name; utf8_recode_enc enc; } names[] = {
    { "cp1252", UTF8_RECODE_CP1252 },
    { "latin1", UTF8_RECODE_LATIN1 },
    { "cesu8",  UTF8_RECODE_CESU8 },
    { "mutf8",  UTF8_RECODE_MUTF8 },
  };
  const char *z;
  size_t i;
  if( sqlite3_value_type(v)==SQLITE_NULL ) return 0;
  z = (const char*)sqlite3_value_text(v);
  if( z==0 ){ sqlite3_result_error_nomem(ctx); return -1; }
  if( option_has_nul(v, z) ){
    result_errorf(ctx, "utf8_recode: unknown encoding (it contains a NUL "
                       "byte): use 'cp1252', 'latin1', 'cesu8' or 'mutf8'");
    return -1;
  }
  for(i=0; i<sizeof(names)/sizeof(names[0]); i++){
    if( sqlite3_stricmp(z, names[i].name)==0 ){ *enc = names[i].enc; return 1; }
  }
  result_errorf(ctx, "utf8_recode: unknown encoding '%s': use 'cp1252', "
                     "'latin1', 'cesu8' or 'mutf8'", z);
  return -1;
}

/*
** utf8_recode(X, ENC): X unchanged when well-formed; otherwise its
** ill-formed units decoded as ENC instead of being replaced.
*/
static void recodeFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv){
  text_writer w;
  const unsigned char *z;
  sqlite3_int64 n;
  utf8_recode_enc enc = UTF8_RECODE_CP1252;
  size_t k;
  (void)argc;
  if( parse_encoding(ctx, argv[1], &enc)<=0 ) return;
  if( arg_bytes(ctx, argv[0], &z, &n)<=0 ) return;
  k = utf8_find_error(z, (size_t)n);
  if( k==(size_t)n ){
    sqlite3_result_text64(ctx, (const char*)z, (sqlite3_uint64)n,
                          SQLITE_TRANSIENT, SQLITE_UTF8);
    return;
  }
  memset(&w, 0, sizeof(w));
  w.z = z;
  w.n = (size_t)n;
  w.option = (int)enc;
  w.write = write_recode;
  result_written(ctx, &w, k);
}

/*
** utf8_length(X): the number of units, the rows of utf8_codepoints(X).
*/
static void lengthFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv){
  const unsigned char *z;
  sqlite3_int64 n;
  (void)argc;
  if( arg_bytes(ctx, argv[0], &z, &n)<=0 ) return;
  sqlite3_result_int64(ctx, (sqlite3_int64)utf8_count_units(z, (size_t)n));
}

/*
** utf8_error_offset(X): 0-based offset of the first ill-formed unit, or
** NULL when X is well-formed.
*/
static void errorOffsetFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv){
  const unsigned char *z;
  sqlite3_int64 n;
  size_t k;
  (void)argc;
  if( arg_bytes(ctx, argv[0], &z, &n)<=0 ) return;
  k = utf8_find_error(z, (size_t)n);
  if( k<(size_t)n ) sqlite3_result_int64(ctx, (sqlite3_int64)k);
}

/*
** The description of X's first error, "overlong at byte 3: C0", in a
** string from sqlite3_mprintf() that the caller frees; NULL when X is
** well-formed (*pOom says whether NULL means an allocation failure).
*/
static char *describe_first_error(const unsigned char *z, size_t n, int *pOom){
  static const char hex[] = "0123456789ABCDEF";
  char hexbuf[9];
  size_t k = utf8_find_error(z, n), i;
  utf8_unit u;
  char *zMsg;
  *pOom = 0;
  if( k==n ) return 0;
  u = utf8_decode_unit(z+k, n-k);
  for(i=0; i<u.length; i++){
    hexbuf[2*i] = hex[z[k+i]>>4];
    hexbuf[2*i+1] = hex[z[k+i]&15];
  }
  hexbuf[2*u.length] = 0;
  zMsg = sqlite3_mprintf("%s at byte %lld: %s",
                         utf8_reason_text((utf8_reason)u.reason),
                         (sqlite3_int64)k, hexbuf);
  if( zMsg==0 ) *pOom = 1;
  return zMsg;
}

/*
** utf8_error(X): NULL when X is well-formed, else one line naming the
** first ill-formed unit's reason, offset and bytes.
*/
static void errorFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv){
  const unsigned char *z;
  sqlite3_int64 n;
  char *zMsg;
  int oom;
  (void)argc;
  if( arg_bytes(ctx, argv[0], &z, &n)<=0 ) return;
  zMsg = describe_first_error(z, (size_t)n, &oom);
  if( oom ){
    sqlite3_result_error_nomem(ctx);
  }else if( zMsg ){
    sqlite3_result_text(ctx, zMsg, -1, sqlite3_free);
  }
}

/*
** utf8_check(X): X itself, of the same type, when well-formed; else an
** error "utf8_check: <utf8_error(X)>", for imports that must stop.
*/
static void checkFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv){
  const unsigned char *z;
  sqlite3_int64 n;
  char *zMsg;
  int oom;
  (void)argc;
  if( arg_bytes(ctx, argv[0], &z, &n)<=0 ) return;
  zMsg = describe_first_error(z, (size_t)n, &oom);
  if( oom ){
    sqlite3_result_error_nomem(ctx);
  }else if( zMsg ){
    result_errorf(ctx, "utf8_check: %s", zMsg);
    sqlite3_free(zMsg);
  }else{
    sqlite3_result_value(ctx, argv[0]);
  }
}

/*
** utf8_encode(C, ...): the text of the code points C. Unlike SQLite's
** char(), a surrogate, a negative value, one above 0x10FFFF or a value
** that is not an integer is an error naming the argument. A NULL argument
** gives NULL; no arguments give ''.
*/
static void encodeFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv){
  unsigned char *out;
  size_t len = 0;
  int i, any_null = 0;
  for(i=0; i<argc; i++){
    sqlite3_int64 c;
    int type = sqlite3_value_type(argv[i]);
    if( type==SQLITE_NULL ){ any_null = 1; continue; }
    if( type!=SQLITE_INTEGER ){
      const char *zText = (const char*)sqlite3_value_text(argv[i]);
      if( type==SQLITE_BLOB ){
        result_errorf(ctx, "utf8_encode: argument %d is not an integer: a BLOB", i+1);
      }else{
        result_errorf(ctx, "utf8_encode: argument %d is not an integer: %Q",
                      i+1, zText);
      }
      return;
    }
    c = sqlite3_value_int64(argv[i]);
    if( c<0 ){
      result_errorf(ctx, "utf8_encode: argument %d is negative: %lld", i+1, c);
      return;
    }
    if( c>0x10FFFF ){
      result_errorf(ctx, "utf8_encode: argument %d is above 0x10FFFF: %lld", i+1, c);
      return;
    }
    if( c>=0xD800 && c<=0xDFFF ){
      result_errorf(ctx, "utf8_encode: argument %d is a surrogate: 0x%llX", i+1, c);
      return;
    }
  }
  if( any_null ) return;
  out = sqlite3_malloc64((sqlite3_uint64)argc*4 + 1);
  if( out==0 ){
    sqlite3_result_error_nomem(ctx);
    return;
  }
  for(i=0; i<argc; i++){
    len += utf8_encode_scalar((uint32_t)sqlite3_value_int64(argv[i]), out+len);
  }
  sqlite3_result_text64(ctx, (const char*)out, len, sqlite3_free, SQLITE_UTF8);
}

/* utf8ext_version(): the version of this extension. */
static void versionFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv){
  (void)argc; (void)argv;
  sqlite3_result_text(ctx, UTF8EXT_VERSION, -1, SQLITE_STATIC);
}

/* utf8ext_impl(): the validator implementation chosen for this CPU. */
static void implFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv){
  (void)argc; (void)argv;
  sqlite3_result_text(ctx, utf8_impl_name(), -1, SQLITE_TRANSIENT);
}

/*
** Register every function and module on db.
*/
static int register_all(sqlite3 *db){
  static const int pure = SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_INNOCUOUS;
  static const struct {
    const char *zName;
    int nArg;
    int flags;
    void (*xFunc)(sqlite3_context*, int, sqlite3_value**);
  } aFunc[] = {
    { "utf8_valid",        1, pure, validFunc },
    { "utf8_fix",          1, pure, fixFunc },
    { "utf8_fix",          2, pure, fixFunc },
    { "utf8_fix",          3, pure, fixFunc },
    { "utf8_length",       1, pure, lengthFunc },
    { "utf8_error_offset", 1, pure, errorOffsetFunc },
    { "utf8_error",        1, pure, errorFunc },
    { "utf8_check",        1, pure, checkFunc },
    { "utf8_encode",      -1, pure, encodeFunc },
    { "utf8_recode",       2, pure, recodeFunc },
    { "utf8ext_version",   0, SQLITE_UTF8 | SQLITE_INNOCUOUS, versionFunc },
    { "utf8ext_impl",      0, SQLITE_UTF8 | SQLITE_INNOCUOUS, implFunc },
  };
  int rc = SQLITE_OK;
  size_t i;
  for(i=0; rc==SQLITE_OK && i<sizeof(aFunc)/sizeof(aFunc[0]); i++){
    rc = sqlite3_create_function(db, aFunc[i].zName, aFunc[i].nArg,
                                 aFunc[i].flags, 0, aFunc[i].xFunc, 0, 0);
  }
  if( rc==SQLITE_OK ) rc = utf8ext_register_codepoints(db);
#ifdef UTF8EXT_HAVE_AUDIT
  if( rc==SQLITE_OK ) rc = utf8ext_register_audit(db);
#endif
  return rc;
}

/*
** The entry points. ".load ./utf8ext" looks for sqlite3_extension_init,
** then for a name made of the file name's letters only: utf8ext.so gives
** sqlite3_utfext_init. sqlite3_utf8ext_init is the name for programs
** that link the extension statically (sqlite3_auto_extension).
*/
/*
** Set the API pointer every glue file calls SQLite through. The usual
** SQLITE_EXTENSION_INIT2 writes it on every load, so a load on one
** connection races with calls on another (ThreadSanitizer says so).
** Here it is written once, under a static SQLite mutex; later loads only
** read it there, which orders them after that one write.
*/
static void set_api_once(const sqlite3_api_routines *pApi){
#ifndef SQLITE_CORE
  /* A SQLite built with SQLITE_THREADSAFE=0 has no mutex routines in its
  ** API table (NULL pointers); it cannot run two loads at once either. */
  sqlite3_mutex *m = pApi->mutex_alloc ? pApi->mutex_alloc(SQLITE_MUTEX_STATIC_APP1) : 0;
  if( m ) pApi->mutex_enter(m);
  if( sqlite3_api!=pApi ) SQLITE_EXTENSION_INIT2(pApi);
  if( m ) pApi->mutex_leave(m);
#else
  (void)pApi;
#endif
}

UTF8EXT_EXPORT
int sqlite3_utf8ext_init(sqlite3 *db, char **pzErrMsg,
                         const sqlite3_api_routines *pApi){
  int rc;
  set_api_once(pApi);
  rc = register_all(db);
  if( rc!=SQLITE_OK && pzErrMsg && *pzErrMsg==0 ){
    *pzErrMsg = sqlite3_mprintf("utf8ext: registration failed: %s",
                                sqlite3_errstr(rc));
  }
  return rc;
}

UTF8EXT_EXPORT
int sqlite3_utfext_init(sqlite3 *db, char **pzErrMsg,
                        const sqlite3_api_routines *pApi){
  return sqlite3_utf8ext_init(db, pzErrMsg, pApi);
}
