/*
** utf8ext_scalars.c - the scalar functions of utf8ext: utf8_valid, utf8_fix,
** utf8_length, utf8_error_offset, utf8_error, utf8_check, utf8_encode,
** utf8_recode, utf8_mojibake, utf8_unmojibake, utf8ext_version and
** utf8ext_impl. Each reads its arguments
** as docs/reference.md says (utf8ext_value_bytes), hands the bytes to
** core/, and turns the answer into an SQL result. Registered
** deterministic and innocuous, so they work in CHECK constraints, indexes,
** generated columns and views, also under PRAGMA trusted_schema=OFF.
**
** Errors are SQL errors whose message starts with the function's name. An
** option (R, RULE, ENC) that is not valid is an error even when X is NULL
** or well-formed; a NULL option gives NULL.
*/
#include "utf8ext_glue.h"
#include "utf8ext.h"
#include "mojibake.h"

#include <string.h>

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
  size_t most;                   /* output bytes per input byte at most, 0: unknown */
  size_t (*write)(const text_writer*, unsigned char *out);
};

/* Up to this many bytes of output room, a writer whose growth is bounded
** (text_writer.most) writes once into room for the worst case instead of
** measuring first: on a dirty value, measuring costs as much as writing. */
#define ONE_PASS_ROOM (1<<20)

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
  size_t room, len;
  unsigned char *out;
  tail.z = w->z + first_error;
  tail.n = w->n - first_error;
  if( w->most && tail.n<=ONE_PASS_ROOM/w->most
   && first_error<=limit && tail.n*w->most<=limit-first_error ){
    room = tail.n*w->most;            /* the worst case: no measuring pass */
  }else{
    room = tail.write(&tail, 0);      /* measured */
    if( room>limit || first_error>limit-room ){
      sqlite3_result_error_toobig(ctx);
      return;
    }
  }
  out = sqlite3_malloc64(first_error + room + 1);
  if( out==0 ){
    sqlite3_result_error_nomem(ctx);
    return;
  }
  memcpy(out, w->z, first_error);
  len = tail.write(&tail, out + first_error);
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
    utf8ext_result_errorf(ctx, "utf8_fix: unknown RULE (it contains a NUL byte): "
                       "use 'subpart', 'run' or 'byte'");
    return -1;
  }
  if( sqlite3_stricmp(z, "subpart")==0 ){ *rule = UTF8_FIX_SUBPART; return 1; }
  if( sqlite3_stricmp(z, "run")==0 ){ *rule = UTF8_FIX_RUN; return 1; }
  if( sqlite3_stricmp(z, "byte")==0 ){ *rule = UTF8_FIX_BYTE; return 1; }
  utf8ext_result_errorf(ctx, "utf8_fix: unknown RULE '%s': use 'subpart', 'run' or 'byte'", z);
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
      utf8ext_result_error(ctx,
          "utf8_fix: the replacement R is not well-formed UTF-8", SQLITE_ERROR);
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
  w.most = rlen>1 ? (size_t)rlen : 1;  /* a replacement per byte at most */
  w.write = write_fix;
  result_written(ctx, &w, k);
}


/*
** Parse the ENC argument of utf8_recode, as parse_rule() does RULE: the
** names and aliases utf8ext_encoding_named() knows (1, *enc set), then the
** labels of the legacy charsets (2, *cs set), then 'utf-8' (3: what
** utf8_guess() names damaged UTF-8, mended as utf8_fix() does). 0 for
** NULL, -1 after an error.
*/
static int parse_encoding(sqlite3_context *ctx, sqlite3_value *v,
                          utf8_recode_enc *enc, int *cs){
  const char *z;
  char names[1024];
  if( sqlite3_value_type(v)==SQLITE_NULL ) return 0;
  z = (const char*)sqlite3_value_text(v);
  if( z==0 ){ sqlite3_result_error_nomem(ctx); return -1; }
  if( utf8ext_encoding_named(z, sqlite3_value_bytes(v), enc) ) return 1;
  if( (*cs = utf8ext_charset_named(z, sqlite3_value_bytes(v)))>=0 ) return 2;
  if( !option_has_nul(v, z)
   && (sqlite3_stricmp(z, "utf-8")==0 || sqlite3_stricmp(z, "utf8")==0) ){
    return 3;
  }
  utf8ext_charset_names(names, sizeof(names));
  if( option_has_nul(v, z) ){
    utf8ext_result_errorf(ctx, "utf8_recode: unknown encoding (it contains a "
                          "NUL byte): use " UTF8EXT_ENCODING_NAMES
                          ", or a legacy charset: %s", names);
  }else{
    utf8ext_result_errorf(ctx, "utf8_recode: unknown encoding '%s': use "
                          UTF8EXT_ENCODING_NAMES ", or a legacy charset: %s",
                          z, names);
  }
  return -1;
}

/* utf8_recode's 'whole': every byte decoded as cp1252 or latin1. */
static size_t write_whole(const text_writer *w, unsigned char *out){
  return utf8_recode_whole(w->z, w->n, (utf8_recode_enc)w->option, out);
}

/* The same two for a legacy charset (core/charsets.h). */
static size_t write_charset_units(const text_writer *w, unsigned char *out){
  return utf8_charset_recode(w->z, w->n, (utf8_charset)w->option, out);
}
static size_t write_charset_whole(const text_writer *w, unsigned char *out){
  return utf8_charset_decode(w->z, w->n, (utf8_charset)w->option, out);
}

/*
** Parse utf8_recode's HOW: 'units' (1, the default) or 'whole' (2); 0 for
** NULL, -1 after reporting an error. 'whole' needs a single-byte ENC or a
** legacy charset (bCharset).
*/
static int parse_how(sqlite3_context *ctx, sqlite3_value *v, utf8_recode_enc enc,
                     int bCharset){
  const char *z;
  if( sqlite3_value_type(v)==SQLITE_NULL ) return 0;
  z = (const char*)sqlite3_value_text(v);
  if( z==0 ){ sqlite3_result_error_nomem(ctx); return -1; }
  if( !option_has_nul(v, z) && sqlite3_stricmp(z, "units")==0 ) return 1;
  if( !option_has_nul(v, z) && sqlite3_stricmp(z, "whole")==0 ){
    if( bCharset || enc==UTF8_RECODE_CP1252 || enc==UTF8_RECODE_LATIN1 ) return 2;
    utf8ext_result_errorf(ctx, "utf8_recode: 'whole' decodes every byte as "
                          "a legacy charset: use it with 'cp1252', 'latin1' "
                          "or another charset, not 'cesu8' or 'mutf8'");
    return -1;
  }
  if( option_has_nul(v, z) ){
    utf8ext_result_errorf(ctx, "utf8_recode: unknown option (it contains a "
                          "NUL byte): use 'units' or 'whole'");
  }else{
    utf8ext_result_errorf(ctx, "utf8_recode: unknown option '%s': use "
                          "'units' or 'whole'", z);
  }
  return -1;
}

/*
** utf8_recode(X, ENC [, HOW]): X unchanged when well-formed; otherwise
** its ill-formed units decoded as ENC instead of being replaced ('units',
** the default; for a multi-byte charset, each run of bytes >= 0x80 that
** holds one, up to a character boundary, see core/charsets.h), or all of
** X decoded as ENC ('whole': a legacy value whose bytes happen to hold a
** well-formed pair, "Ã©" as C3 A9, comes out in one charset, not mixed).
*/
static void recodeFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv){
  text_writer w;
  const unsigned char *z;
  sqlite3_int64 n;
  utf8_recode_enc enc = UTF8_RECODE_CP1252;
  int cs = -1, kind;
  size_t k;
  int how = 1;
  if( (kind = parse_encoding(ctx, argv[1], &enc, &cs))<=0 ) return;
  if( argc>2 && (how = parse_how(ctx, argv[2], enc, kind>=2))<=0 ) return;
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
  if( kind==3 ){
    /* 'utf-8': the text was UTF-8, only damaged; either HOW mends it. */
    static const unsigned char fffd[] = { 0xEF, 0xBF, 0xBD };
    w.r = fffd;
    w.rlen = 3;
    w.most = 3;
    w.option = (int)UTF8_FIX_SUBPART;
    w.write = write_fix;
  }else if( kind==2 ){
    /* A multi-byte charset's 'units' may begin before the first error (at
    ** the start of its run of bytes >= 0x80): start the writer there. */
    w.option = cs;
    w.write = how==2 ? write_charset_whole : write_charset_units;
    while( how==1 && k>0 && z[k-1]>=0x80 ) k--;
  }else{
    w.option = (int)enc;
    w.write = how==2 ? write_whole : write_recode;
  }
  result_written(ctx, &w, how==2 ? 0 : k);
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
    utf8ext_result_errorf(ctx, "utf8_check: %s", zMsg);
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
        utf8ext_result_errorf(ctx, "utf8_encode: argument %d is not an integer: a BLOB", i+1);
      }else{
        utf8ext_result_errorf(ctx, "utf8_encode: argument %d is not an integer: %Q",
                      i+1, zText);
      }
      return;
    }
    c = sqlite3_value_int64(argv[i]);
    if( c<0 ){
      utf8ext_result_errorf(ctx, "utf8_encode: argument %d is negative: %lld", i+1, c);
      return;
    }
    if( c>0x10FFFF ){
      utf8ext_result_errorf(ctx, "utf8_encode: argument %d is above 0x10FFFF: %lld", i+1, c);
      return;
    }
    if( c>=0xD800 && c<=0xDFFF ){
      utf8ext_result_errorf(ctx, "utf8_encode: argument %d is a surrogate: 0x%llX", i+1, c);
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

/*
** utf8_mojibake(X) and utf8_unmojibake(X) share this: the misreadings of
** X undone by core/mojibake.c, or X read whole as UTF-16 or UTF-32 by
** core/widetext.c. Returns the depth (0: nothing to undo, or X NULL or
** ill-formed and not wide text) with *pOut (from sqlite3_malloc) and
** *pLen; -1 after reporting an error to ctx.
*/
static int unmojibake_arg(sqlite3_context *ctx, sqlite3_value *v,
                          utf8_moji_charset *chain, unsigned char **pOut,
                          size_t *pLen){
  const unsigned char *z;
  sqlite3_int64 n, nBuf = 0, nOut = 0;
  unsigned char *aBuf = 0;
  int rc, depth;
  *pOut = 0;
  rc = arg_bytes(ctx, v, &z, &n);
  if( rc<=0 ) return rc;
  depth = utf8ext_unmojibake_buf(z, n, &aBuf, &nBuf, &nOut, chain);
  if( depth<0 ){ sqlite3_free(aBuf); sqlite3_result_error_nomem(ctx); return -1; }
  if( depth==0 ){ sqlite3_free(aBuf); return 0; }
  *pOut = aBuf;
  *pLen = (size_t)nOut;
  return depth;
}

/*
** utf8_mojibake(X): NULL when X shows no sign of a wrong decoding (or is
** NULL or ill-formed); else the misreadings, outermost first: 'cp1252',
** 'cp1252,cp1252', 'latin1', 'macroman'; or 'utf-16le', 'gb18030',
** 'cp1252-as-latin1' and the like.
*/
static void mojibakeFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv){
  utf8_moji_charset chain[UTF8_MOJI_MAX_DEPTH];
  unsigned char *out;
  size_t len;
  char buf[UTF8_MOJI_MAX_DEPTH*24];       /* "cp1252-as-latin1" 4 times, 3 commas */
  int depth, i;
  (void)argc;
  depth = unmojibake_arg(ctx, argv[0], chain, &out, &len);
  if( depth<=0 ) return;
  sqlite3_free(out);
  buf[0] = 0;
  for(i=0; i<depth; i++){
    if( i ) strcat(buf, ",");
    strcat(buf, utf8_moji_name(chain[i]));
  }
  sqlite3_result_text(ctx, buf, -1, SQLITE_TRANSIENT);
}

/*
** utf8_unmojibake(X): X with its misreadings undone; X itself (same type)
** when there is nothing confident to undo.
*/
static void unmojibakeFunc(sqlite3_context *ctx, int argc, sqlite3_value **argv){
  utf8_moji_charset chain[UTF8_MOJI_MAX_DEPTH];
  unsigned char *out;
  size_t len;
  int depth;
  (void)argc;
  depth = unmojibake_arg(ctx, argv[0], chain, &out, &len);
  if( depth<0 ) return;
  if( depth==0 ){
    sqlite3_result_value(ctx, argv[0]);
    return;
  }
  if( len>(size_t)length_limit(ctx) ){
    sqlite3_free(out);
    sqlite3_result_error_toobig(ctx);
    return;
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
** Register every scalar function on db.
*/
int utf8ext_register_scalars(sqlite3 *db){
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
    { "utf8_recode",       3, pure, recodeFunc },
    { "utf8_mojibake",     1, pure, mojibakeFunc },
    { "utf8_unmojibake",   1, pure, unmojibakeFunc },
    { "utf8ext_version",   0, SQLITE_UTF8 | SQLITE_INNOCUOUS, versionFunc },
    { "utf8ext_impl",      0, SQLITE_UTF8 | SQLITE_INNOCUOUS, implFunc },
  };
  int rc = SQLITE_OK;
  size_t i;
  for(i=0; rc==SQLITE_OK && i<sizeof(aFunc)/sizeof(aFunc[0]); i++){
    rc = sqlite3_create_function(db, aFunc[i].zName, aFunc[i].nArg,
                                 aFunc[i].flags, 0, aFunc[i].xFunc, 0, 0);
  }
  return rc;
}
