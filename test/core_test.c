/*
** test/core_test.c - the C tests of the UTF-8 engine (core/), no SQLite.
**
**   1. Known vectors: RFC 3629's examples, Unicode Table 3-8, every
**      boundary of the ABNF, each of the six reasons; exact units and
**      exact repaired bytes.
**   2. Every byte string of length 0 to 3 (16.8 million), compared with
**      the reference decoder of test/reference.c: validity, first error,
**      segmentation, reasons, code points, unit count, repaired bytes for
**      all three rules, recoded bytes for all four encodings.
**   3. A million random strings of length 4 to 16, drawn to be mostly
**      near-valid (valid characters, boundary bytes, cut sequences), with
**      the same comparisons.
**
** Usage: core_test [--quick]   (--quick samples the 3-byte sweep, for
** sanitizer builds). The last line is "core: N passed, N failed".
*/
#include "utf8.h"
#include "impl.h"
#include "reference.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static int n_pass, n_fail;

static void pass(void){ n_pass++; }

static void fail(const char *name, const char *what, const unsigned char *s,
                 size_t n, const char *expected, const char *actual){
  char buf[2*4096+1];
  n_fail++;
  if( n_fail<=20 ){
    printf("FAIL %s: %s\n  input:    %s\n  expected: %s\n  actual:   %s\n",
           name, what, hex(s, n < 4096 ? n : 4096, buf), expected, actual);
  }
}

/*
** The units of s as text: "U+0061" for a character, "missing continuation(3)"
** for an ill-formed unit of 3 bytes, separated by spaces.
*/
static void describe_units(const unsigned char *s, size_t n, char *out, size_t cap){
  size_t i = 0, o = 0;
  out[0] = 0;
  while( i<n && o+40<cap ){
    utf8_unit u = utf8_decode_unit(s+i, n-i);
    if( u.reason==UTF8_OK ){
      o += (size_t)snprintf(out+o, cap-o, "%sU+%04X", o ? " " : "", (unsigned)u.codepoint);
    }else{
      o += (size_t)snprintf(out+o, cap-o, "%s%s(%u)", o ? " " : "",
                            utf8_reason_text((utf8_reason)u.reason), (unsigned)u.length);
    }
    i += u.length;
  }
}

/*
** Compare everything the engine says of s[0..n) with the reference.
** Returns 1 if all agree; on the first disagreement calls fail() with
** the name given and returns 0.
*/
static int agrees(const char *name, const unsigned char *s, size_t n){
  static const unsigned char fffd[] = { 0xEF, 0xBF, 0xBD };
  static const unsigned char qmark[] = { '?' };
  unsigned char got[16*12+16], want[16*12+16];
  char e[64], a[64], hx1[2*sizeof(got)+1], hx2[2*sizeof(got)+1];
  size_t i, gl, wl, ref_err = ref_first_error(s, n);
  int rule, enc;

  if( utf8_find_error(s, n)!=ref_err || utf8_find_error_scalar(s, n)!=ref_err ){
    snprintf(e, sizeof e, "%zu", ref_err);
    snprintf(a, sizeof a, "%zu (scalar %zu)", utf8_find_error(s, n),
             utf8_find_error_scalar(s, n));
    fail(name, "first error offset", s, n, e, a);
    return 0;
  }
  {
    /* the counting validators: the same offset, and the characters of
    ** the well-formed prefix before it */
    size_t want_chars = ref_count_units(s, ref_err), c1 = (size_t)-1, c2 = (size_t)-1;
    size_t k1 = utf8_find_error_count(s, n, &c1);
    size_t k2 = utf8_find_error_count_scalar(s, n, &c2);
    if( k1!=ref_err || k2!=ref_err || c1!=want_chars || c2!=want_chars ){
      snprintf(e, sizeof e, "%zu, %zu chars", ref_err, want_chars);
      snprintf(a, sizeof a, "%zu, %zu chars (scalar %zu, %zu)", k1, c1, k2, c2);
      fail(name, "utf8_find_error_count", s, n, e, a);
      return 0;
    }
  }
  if( utf8_is_valid(s, n)!=(ref_err==n) ){
    fail(name, "utf8_is_valid", s, n, ref_err==n ? "1" : "0", ref_err==n ? "0" : "1");
    return 0;
  }
  for(i=0; i<n; ){
    utf8_unit u = utf8_decode_unit(s+i, n-i);
    ref_unit r = ref_decode(s+i, n-i);
    if( u.length!=r.length || u.reason!=r.reason
     || (r.reason==0 && u.codepoint!=r.codepoint) ){
      snprintf(e, sizeof e, "at %zu: len %zu reason %d cp %X", i, r.length,
               r.reason, (unsigned)r.codepoint);
      snprintf(a, sizeof a, "at %zu: len %u reason %u cp %X", i, u.length,
               u.reason, (unsigned)u.codepoint);
      fail(name, "unit", s, n, e, a);
      return 0;
    }
    i += u.length;
  }
  if( utf8_count_units(s, n)!=ref_count_units(s, n) ){
    snprintf(e, sizeof e, "%zu", ref_count_units(s, n));
    snprintf(a, sizeof a, "%zu", utf8_count_units(s, n));
    fail(name, "utf8_count_units", s, n, e, a);
    return 0;
  }
  {
    utf8_errors er = utf8_scan_errors(s, n);
    size_t bad = 0;
    for(i=0; i<n; ){
      ref_unit r = ref_decode(s+i, n-i);
      bad += r.reason!=0;
      i += r.length;
    }
    if( er.count!=bad || er.first!=ref_err ){
      snprintf(e, sizeof e, "count %zu first %zu", bad, ref_err);
      snprintf(a, sizeof a, "count %zu first %zu", er.count, er.first);
      fail(name, "utf8_scan_errors", s, n, e, a);
      return 0;
    }
  }
  for(rule=0; rule<3; rule++){
    const unsigned char *r = rule==1 ? qmark : fffd;
    size_t rlen = rule==1 ? 1 : 3;
    wl = ref_fix(s, n, r, rlen, rule, want);
    gl = utf8_fix(s, n, r, rlen, (utf8_fix_rule)rule, got);
    if( gl!=wl || memcmp(got, want, wl)!=0
     || utf8_fix(s, n, r, rlen, (utf8_fix_rule)rule, 0)!=wl
     || ref_first_error(got, gl)!=gl ){
      fail(name, rule==0 ? "utf8_fix subpart" : rule==1 ? "utf8_fix run" : "utf8_fix byte",
           s, n, hex(want, wl, hx1), hex(got, gl, hx2));
      return 0;
    }
  }
  for(enc=0; enc<4; enc++){
    wl = ref_recode(s, n, enc, want);
    gl = utf8_recode(s, n, (utf8_recode_enc)enc, got);
    if( gl!=wl || memcmp(got, want, wl)!=0
     || utf8_recode(s, n, (utf8_recode_enc)enc, 0)!=wl
     || ref_first_error(got, gl)!=gl ){
      fail(name, "utf8_recode", s, n, hex(want, wl, hx1), hex(got, gl, hx2));
      return 0;
    }
  }
  return 1;
}

/*
** 1. Known vectors: input, the expected units, the expected utf8_fix.
*/
static void test_vectors(void){
  static const struct { const char *name, *in, *units, *fixed; } v[] = {
    /* RFC 3629 section 3 and 4: well-formed */
    { "rfc-1", "41", "U+0041", "41" },
    { "rfc-2", "C2A9", "U+00A9", "C2A9" },
    { "rfc-3", "E4BDA0", "U+4F60", "E4BDA0" },
    { "rfc-4", "F09F9880", "U+1F600", "F09F9880" },
    { "rfc-5", "41E289A2CE912E", "U+0041 U+2262 U+0391 U+002E", "41E289A2CE912E" },
    { "rfc-6", "ED959CEAB5ADEC96B4", "U+D55C U+AD6D U+C5B4", "ED959CEAB5ADEC96B4" },
    { "rfc-7", "E697A5E69CACE8AA9E", "U+65E5 U+672C U+8A9E", "E697A5E69CACE8AA9E" },
    { "rfc-8", "EFBBBFF0A38EB4", "U+FEFF U+233B4", "EFBBBFF0A38EB4" },
    /* RFC 3629: ill-formed, none decoded to a character */
    { "rfc-9", "C080", "overlong(1) unexpected continuation(1)", "EFBFBDEFBFBD" },
    { "rfc-10", "EDA080", "surrogate(1) unexpected continuation(1) unexpected continuation(1)",
      "EFBFBDEFBFBDEFBFBD" },
    { "rfc-11", "F5808080", "too large(1) unexpected continuation(1) unexpected continuation(1) unexpected continuation(1)",
      "EFBFBDEFBFBDEFBFBDEFBFBD" },
    { "rfc-12", "E4BD", "truncated(2)", "EFBFBD" },
    { "rfc-13", "EDA18CEDBEB4", "surrogate(1) unexpected continuation(1) unexpected continuation(1) surrogate(1) unexpected continuation(1) unexpected continuation(1)",
      "EFBFBDEFBFBDEFBFBDEFBFBDEFBFBDEFBFBD" },
    /* Unicode Table 3-8 */
    { "table3-8", "61F18080E180C262806380BF64",
      "U+0061 missing continuation(3) missing continuation(2) missing continuation(1) U+0062 unexpected continuation(1) U+0063 unexpected continuation(1) unexpected continuation(1) U+0064",
      "61EFBFBDEFBFBDEFBFBD62EFBFBD63EFBFBDEFBFBD64" },
    /* every boundary of the ABNF */
    { "bound-7F", "7F", "U+007F", "7F" },
    { "bound-80", "80", "unexpected continuation(1)", "EFBFBD" },
    { "bound-BF", "BF", "unexpected continuation(1)", "EFBFBD" },
    { "bound-C1", "C1BF", "overlong(1) unexpected continuation(1)", "EFBFBDEFBFBD" },
    { "bound-C2", "C280", "U+0080", "C280" },
    { "bound-DF", "DFBF", "U+07FF", "DFBF" },
    { "bound-E0-9F", "E09FBF", "overlong(1) unexpected continuation(1) unexpected continuation(1)",
      "EFBFBDEFBFBDEFBFBD" },
    { "bound-E0-A0", "E0A080", "U+0800", "E0A080" },
    { "bound-ED-9F", "ED9FBF", "U+D7FF", "ED9FBF" },
    { "bound-ED-A0", "EDA080", "surrogate(1) unexpected continuation(1) unexpected continuation(1)",
      "EFBFBDEFBFBDEFBFBD" },
    { "bound-EE", "EE8080", "U+E000", "EE8080" },
    { "bound-EF", "EFBFBF", "U+FFFF", "EFBFBF" },
    { "bound-F0-8F", "F08FBFBF", "overlong(1) unexpected continuation(1) unexpected continuation(1) unexpected continuation(1)",
      "EFBFBDEFBFBDEFBFBDEFBFBD" },
    { "bound-F0-90", "F0908080", "U+10000", "F0908080" },
    { "bound-F4-8F", "F48FBFBF", "U+10FFFF", "F48FBFBF" },
    { "bound-F4-90", "F4908080", "too large(1) unexpected continuation(1) unexpected continuation(1) unexpected continuation(1)",
      "EFBFBDEFBFBDEFBFBDEFBFBD" },
    { "bound-F5", "F5", "too large(1)", "EFBFBD" },
    { "bound-FF", "FF", "too large(1)", "EFBFBD" },
    /* each reason, alone */
    { "reason-missing", "E18041", "missing continuation(2) U+0041", "EFBFBD41" },
    { "reason-missing-lead", "C241", "missing continuation(1) U+0041", "EFBFBD41" },
    { "reason-missing-E0", "E041", "missing continuation(1) U+0041", "EFBFBD41" },
    { "reason-truncated-1", "F0", "truncated(1)", "EFBFBD" },
    { "reason-truncated-3", "4AF09F98", "U+004A truncated(3)", "4AEFBFBD" },
    { "reason-truncated-E0", "E0A0", "truncated(2)", "EFBFBD" },
    /* an embedded NUL is a character */
    { "nul", "610062", "U+0061 U+0000 U+0062", "610062" },
    { "empty", "", "", "" },
  };
  size_t i;
  for(i=0; i<sizeof(v)/sizeof(v[0]); i++){
    unsigned char in[64], out[256];
    char units[1024], hx[513];
    size_t n = unhex(v[i].in, in), len;
    describe_units(in, n, units, sizeof units);
    if( strcmp(units, v[i].units)!=0 ){
      fail(v[i].name, "units", in, n, v[i].units, units);
      continue;
    }
    len = utf8_fix(in, n, (const unsigned char*)"\xEF\xBF\xBD", 3, UTF8_FIX_SUBPART, out);
    if( strcmp(hex(out, len, hx), v[i].fixed)!=0 ){
      fail(v[i].name, "utf8_fix", in, n, v[i].fixed, hx);
      continue;
    }
    if( !agrees(v[i].name, in, n) ) continue;
    pass();
  }
}

/*
** The three rules and a multi-byte replacement on inputs where they differ.
*/
static void test_rules(void){
  static const struct { const char *name, *in, *r; int rule; const char *want; } v[] = {
    { "rule-run", "61808062", "3F", UTF8_FIX_RUN, "613F62" },
    { "rule-subpart", "61808062", "3F", UTF8_FIX_SUBPART, "613F3F62" },
    { "rule-subpart-E180", "61E18062", "3F", UTF8_FIX_SUBPART, "613F62" },
    { "rule-byte-E180", "61E18062", "3F", UTF8_FIX_BYTE, "613F3F62" },
    { "rule-drop", "61C0F5E18062", "", UTF8_FIX_SUBPART, "6162" },
    { "rule-multibyte", "61FF62", "E282AC", UTF8_FIX_SUBPART, "61E282AC62" },
    { "rule-run-table3-8", "61F18080E180C262806380BF64", "3F", UTF8_FIX_RUN, "613F623F633F64" },
    { "rule-byte-table3-8", "61F18080E180C262806380BF64", "3F", UTF8_FIX_BYTE,
      "613F3F3F3F3F3F623F633F3F64" },
  };
  size_t i;
  for(i=0; i<sizeof(v)/sizeof(v[0]); i++){
    unsigned char in[64], r[8], out[256];
    char hx[513];
    size_t n = unhex(v[i].in, in), rlen = unhex(v[i].r, r);
    size_t len = utf8_fix(in, n, r, rlen, (utf8_fix_rule)v[i].rule, out);
    if( strcmp(hex(out, len, hx), v[i].want)!=0 ){
      fail(v[i].name, "utf8_fix", in, n, v[i].want, hx);
    }else{
      pass();
    }
  }
}

/*
** Recode vectors from the issue and the legacy encodings.
*/
static void test_recode(void){
  static const struct { const char *name, *in; int enc; const char *want; } v[] = {
    { "recode-cp1252", "636166E9", UTF8_RECODE_CP1252, "636166C3A9" },
    { "recode-cp1252-euro", "80", UTF8_RECODE_CP1252, "E282AC" },
    { "recode-cp1252-81", "81", UTF8_RECODE_CP1252, "C281" },
    { "recode-latin1-80", "80", UTF8_RECODE_LATIN1, "C280" },
    { "recode-latin1-FF", "FF", UTF8_RECODE_LATIN1, "C3BF" },
    { "recode-cesu8-U+1F600", "EDA0BDEDB880", UTF8_RECODE_CESU8, "F09F9880" },
    { "recode-cesu8-U+233B4", "EDA18CEDBEB4", UTF8_RECODE_CESU8, "F0A38EB4" },
    { "recode-cesu8-U+10000", "EDA080EDB080", UTF8_RECODE_CESU8, "F0908080" },
    { "recode-cesu8-U+10FFFF", "EDAFBFEDBFBF", UTF8_RECODE_CESU8, "F48FBFBF" },
    { "recode-cesu8-lone", "61EDA08062", UTF8_RECODE_CESU8, "61EFBFBDEFBFBDEFBFBD62" },
    { "recode-cesu8-low-first", "EDB080EDA080", UTF8_RECODE_CESU8,
      "EFBFBDEFBFBDEFBFBDEFBFBDEFBFBDEFBFBD" },
    { "recode-cesu8-C080", "C080", UTF8_RECODE_CESU8, "EFBFBDEFBFBD" },
    { "recode-mutf8-C080", "61C08062", UTF8_RECODE_MUTF8, "610062" },
    { "recode-mutf8-pair", "EDA0BDEDB880", UTF8_RECODE_MUTF8, "F09F9880" },
  };
  size_t i;
  for(i=0; i<sizeof(v)/sizeof(v[0]); i++){
    unsigned char in[64], out[256];
    char hx[513];
    size_t n = unhex(v[i].in, in);
    size_t len = utf8_recode(in, n, (utf8_recode_enc)v[i].enc, out);
    if( strcmp(hex(out, len, hx), v[i].want)!=0 ){
      fail(v[i].name, "utf8_recode", in, n, v[i].want, hx);
    }else{
      pass();
    }
  }
}

/*
** 2. Every byte string of length 0 to 3; with quick, a sample of the
** 3-byte ones (every 61st).
*/
static void test_exhaustive(int quick){
  unsigned char s[3];
  unsigned long i, bad = 0, tried = 0;
  int len;
  if( agrees("exhaustive-0", s, 0) ) pass();
  for(len=1; len<=3; len++){
    unsigned long total = 1ul << (8*len);
    unsigned long step = (quick && len==3) ? 61 : 1;
    char name[32];
    int ok = 1;
    snprintf(name, sizeof name, "exhaustive-%d", len);
    for(i=0; i<total; i+=step){
      s[0] = (unsigned char)(i & 0xFF);
      s[1] = (unsigned char)((i>>8) & 0xFF);
      s[2] = (unsigned char)((i>>16) & 0xFF);
      tried++;
      if( !agrees(name, s, (size_t)len) ){ ok = 0; if( ++bad>5 ) break; }
    }
    if( ok ) pass();
  }
  printf("core: exhaustive sweep checked %lu strings of 1-3 bytes\n", tried);
}

/* A small, seedable generator so a failure can be replayed. */
static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint32_t rng(void){
  rng_state ^= rng_state << 13;
  rng_state ^= rng_state >> 7;
  rng_state ^= rng_state << 17;
  return (uint32_t)(rng_state >> 16);
}

/*
** Append one random piece to s: a valid character of 1-4 bytes, a byte
** near a boundary of the ABNF, any byte, or a character cut short.
*/
static size_t random_piece(unsigned char *s, size_t room){
  static const unsigned char edges[] = {
    0x00, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2, 0xDF,
    0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF,
  };
  unsigned char buf[4];
  size_t len;
  uint32_t kind = rng() % 8, cp;
  if( kind<=1 ){
    buf[0] = edges[rng() % sizeof(edges)];
    len = 1;
  }else if( kind==2 ){
    buf[0] = (unsigned char)rng();
    len = 1;
  }else{
    do{
      switch( rng() % 4 ){
        case 0: cp = rng() % 0x80; break;
        case 1: cp = 0x80 + rng() % 0x780; break;
        case 2: cp = 0x800 + rng() % 0xF800; break;
        default: cp = 0x10000 + rng() % 0x100000; break;
      }
    }while( cp>=0xD800 && cp<=0xDFFF );
    len = ref_encode(cp, buf);
    if( kind==7 && len>1 ) len = 1 + rng() % (len-1);   /* cut short */
  }
  if( len>room ) len = room;
  memcpy(s, buf, len);
  return len;
}

/*
** 3. A million random strings of length 4 to 16.
*/
static void test_random(long count){
  unsigned char s[16];
  long i, bad = 0;
  for(i=0; i<count; i++){
    size_t n = 4 + rng() % 13, k = 0;
    while( k<n ) k += random_piece(s+k, n-k);
    if( !agrees("random", s, n) && ++bad>5 ) break;
  }
  if( bad==0 ) pass();
  printf("core: %ld random strings of 4-16 bytes\n", i);
}

/*
** The decoders for validated text, utf8_decode_valid() and its branchless
** utf8_decode_valid_padded(), on every scalar value, followed by any byte.
*/
static void test_decode_valid(void){
  uint32_t cp;
  int ok = 1;
  for(cp=0; cp<=0x10FFFF && ok; cp++){
    unsigned char s[8];
    size_t len;
    utf8_unit a, b;
    if( cp>=0xD800 && cp<=0xDFFF ) continue;
    len = ref_encode(cp, s);
    memset(s+len, (int)(cp*7 & 0xFF), sizeof(s)-len);   /* whatever follows */
    a = utf8_decode_valid(s);
    b = utf8_decode_valid_padded(s);
    if( a.codepoint!=cp || a.length!=len || b.codepoint!=cp || b.length!=len
     || a.reason!=UTF8_OK || b.reason!=UTF8_OK ){
      char e[32], g[64];
      snprintf(e, sizeof e, "U+%04X len %zu", (unsigned)cp, len);
      snprintf(g, sizeof g, "U+%04X len %u / U+%04X len %u", (unsigned)a.codepoint,
               a.length, (unsigned)b.codepoint, b.length);
      fail("decode-valid", "utf8_decode_valid", s, len, e, g);
      ok = 0;
    }
  }
  if( ok ) pass();
}

int main(int argc, char **argv){
  int quick = argc>1 && strcmp(argv[1], "--quick")==0;
  test_vectors();
  test_rules();
  test_recode();
  test_decode_valid();
  test_exhaustive(quick);
  test_random(quick ? 100000 : 1000000);
  printf("core (%s): %d passed, %d failed\n", utf8_impl_name(), n_pass, n_fail);
  return n_fail!=0;
}
