/*
** test/fuzz/fuzz_core.c - a libFuzzer target for the UTF-8 engine (core/).
**
** Differential: every validator implementation compiled in (the list of
** utf8_impl_list(), SIMD paths included once they are merged; those this
** CPU cannot run are skipped) is compared with the plain reference decoder
** of test/reference.c, which shares no code with core/. For the input X
** (and for X copied to an odd address, so SIMD loads see another
** alignment) it checks:
**
**   - the first error offset of every implementation and of the dispatcher;
**   - the segmentation: every unit's length, reason and code point;
**   - utf8_count_units() and utf8_scan_errors() (count, first, unit);
**   - utf8_fix() for the 3 rules and several replacements, byte for byte,
**     and its measured length, and each implementation's repair kernel
**     where it applies, all written into a buffer of exactly that length;
**   - utf8_recode() for the 4 encodings, byte for byte;
**
** and these invariants:
**
**   - fix(X) is well-formed; valid(X) implies fix(X)==X;
**   - the units, concatenated, give X back;
**   - fix(X) with the subpart rule and U+FFFD has as many characters as
**     X has units;
**   - every recode output is well-formed;
**   - utf8_context() around every ill-formed unit (and at the end) is
**     well-formed and within UTF8_CONTEXT_MAX.
**
** A failed check prints what differs and aborts, which libFuzzer reports
** as a crash with the input saved.
**
** Build and run: make fuzz FUZZ_SECONDS=60   (see the Makefile)
*/
#include "utf8.h"
#include "impl.h"
#include "context.h"
#include "guess.h"
#include "reference.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
** Report a failed check with the input as hex and abort.
*/
static void fail(const char *what, const unsigned char *s, size_t n,
                 size_t a, size_t b){
  size_t i;
  fprintf(stderr, "fuzz_core: %s (got %zu, expected %zu)\ninput (%zu bytes):",
          what, a, b, n);
  for(i=0; i<n && i<256; i++) fprintf(stderr, " %02X", s[i]);
  fprintf(stderr, "%s\n", n>256 ? " ..." : "");
  abort();
}

#define CHECK_EQ(what, got, want) do{ \
  size_t got_ = (size_t)(got), want_ = (size_t)(want); \
  if( got_!=want_ ) fail(what, s, n, got_, want_); \
}while(0)

/*
** Compare every implementation's first error offset with the reference.
*/
static size_t ref_chars_before(const unsigned char *s, size_t e){
  return ref_count_units(s, e);  /* s[0..e) is well-formed: units are characters */
}

static void check_validators(const unsigned char *s, size_t n, size_t want){
  size_t count, i, chars, want_chars = ref_chars_before(s, want);
  const utf8_impl *const *impls = utf8_impl_list(&count);
  for(i=0; i<count; i++){
    if( !impls[i]->cpu_supports() ) continue;
    CHECK_EQ(impls[i]->name, impls[i]->find_error(s, n), want);
    /* the counting validator: the same offset, the characters before it */
    chars = (size_t)-1;
    CHECK_EQ(impls[i]->name, impls[i]->find_error_count(s, n, &chars), want);
    CHECK_EQ("characters before the first error", chars, want_chars);
  }
  CHECK_EQ("utf8_find_error (dispatch)", utf8_find_error(s, n), want);
  chars = (size_t)-1;
  CHECK_EQ("utf8_find_error_count (dispatch)", utf8_find_error_count(s, n, &chars), want);
  CHECK_EQ("characters before the first error (dispatch)", chars, want_chars);
  CHECK_EQ("utf8_is_valid", utf8_is_valid(s, n), want==n);
}

/*
** Walk the units with the engine and the reference side by side; check
** that they agree and that the units tile X exactly.
*/
static void check_segmentation(const unsigned char *s, size_t n){
  size_t i = 0, units = 0;
  while( i<n ){
    utf8_unit u = utf8_decode_unit(s+i, n-i);
    ref_unit r = ref_decode(s+i, n-i);
    CHECK_EQ("unit length", u.length, r.length);
    CHECK_EQ("unit reason", u.reason, r.reason);
    if( r.reason==0 ) CHECK_EQ("unit codepoint", u.codepoint, r.codepoint);
    if( u.length<1 || u.length>4 || u.length>n-i ) fail("unit out of range", s, n, u.length, n-i);
    i += u.length;
    units++;
  }
  CHECK_EQ("units concatenate to X", i, n);
  CHECK_EQ("utf8_count_units", utf8_count_units(s, n), units);
  CHECK_EQ("ref_count_units", ref_count_units(s, n), units);
}

/*
** utf8_scan_errors() against a walk of the reference.
*/
static void check_scan_errors(const unsigned char *s, size_t n){
  utf8_errors e = utf8_scan_errors(s, n);
  size_t i = 0, count = 0, first = n;
  ref_unit first_unit = { 0, 0, 0 };
  while( i<n ){
    ref_unit r = ref_decode(s+i, n-i);
    if( r.reason ){
      if( count==0 ){ first = i; first_unit = r; }
      count++;
    }
    i += r.length;
  }
  CHECK_EQ("scan_errors count", e.count, count);
  CHECK_EQ("scan_errors first", e.first, first);
  CHECK_EQ("scan_errors unit length", e.unit.length, first_unit.length);
  CHECK_EQ("scan_errors unit reason", e.unit.reason, first_unit.reason);
}

/*
** Characters in a well-formed string.
*/
static size_t count_chars(const unsigned char *s, size_t n){
  size_t i, c = 0;
  for(i=0; i<n; i++) c += (s[i] & 0xC0)!=0x80;
  return c;
}

/*
** utf8_fix() for every rule with replacement r, against ref_fix().
*/
static void check_fix(const unsigned char *s, size_t n, size_t first_error,
                      const unsigned char *r, size_t rlen, size_t units){
  int rule;
  size_t cap = n*(rlen>1 ? rlen : 1) + 1;
  unsigned char *got = malloc(cap), *want = malloc(cap);
  if( !got || !want ) abort();
  for(rule=0; rule<3; rule++){
    size_t len = utf8_fix(s, n, r, rlen, (utf8_fix_rule)rule, 0);
    size_t wlen = ref_fix(s, n, r, rlen, rule, want);
    /* exactly the measured length, so that a store past it is caught */
    unsigned char *exact = malloc(wlen ? wlen : 1);
    size_t count, i;
    const utf8_impl *const *impls = utf8_impl_list(&count);
    if( !exact ) abort();
    CHECK_EQ("fix length (measured)", len, wlen);
    CHECK_EQ("fix length (written)",
             utf8_fix(s, n, r, rlen, (utf8_fix_rule)rule, exact), wlen);
    if( memcmp(exact, want, wlen)!=0 ) fail("fix bytes", s, n, rule, rlen);
    /* every repair kernel, where it applies (core/fix.c) */
    for(i=0; i<count && rlen>=3 && rule!=UTF8_FIX_RUN; i++){
      if( !impls[i]->fix || !impls[i]->cpu_supports() ) continue;
      CHECK_EQ(impls[i]->name, impls[i]->fix(s, n, r, rlen, rule==UTF8_FIX_BYTE, 0), wlen);
      CHECK_EQ(impls[i]->name, impls[i]->fix(s, n, r, rlen, rule==UTF8_FIX_BYTE, exact), wlen);
      if( memcmp(exact, want, wlen)!=0 ) fail("fix bytes (kernel)", s, n, rule, rlen);
    }
#if defined(UTF8EXT_HAVE_X86)
    /* "avx512" runs one of its two kernels here: the other one too */
    if( rlen>=3 && rule!=UTF8_FIX_RUN && utf8_cpu_has_avx512() ){
      int per_byte = rule==UTF8_FIX_BYTE;
      CHECK_EQ("avx512-window", utf8_fix_avx512_window(s, n, r, rlen, per_byte, exact), wlen);
      if( memcmp(exact, want, wlen)!=0 ) fail("fix bytes (avx512-window)", s, n, rule, rlen);
      if( utf8_cpu_has_avx512_vbmi2() ){
        CHECK_EQ("avx512-vbmi2", utf8_fix_avx512_vbmi2(s, n, r, rlen, per_byte, exact), wlen);
        if( memcmp(exact, want, wlen)!=0 ) fail("fix bytes (avx512-vbmi2)", s, n, rule, rlen);
      }
    }
#endif
    memcpy(got, exact, wlen);
    free(exact);
    CHECK_EQ("fix(X) is well-formed", ref_first_error(got, len), len);
    if( first_error==n ){
      CHECK_EQ("valid X: fix(X) length", len, n);
      if( memcmp(got, s, n)!=0 ) fail("valid X: fix(X)!=X", s, n, 0, 0);
    }
    if( rule==UTF8_FIX_SUBPART && rlen==3 && memcmp(r, "\xEF\xBF\xBD", 3)==0 ){
      CHECK_EQ("characters of fix(X) = units of X", count_chars(got, len), units);
    }
  }
  free(got);
  free(want);
}

/*
** utf8_recode() for every encoding, against ref_recode().
*/
static void check_recode(const unsigned char *s, size_t n){
  int enc;
  size_t cap = 3*n + 4;
  unsigned char *got = malloc(cap), *want = malloc(cap);
  if( !got || !want ) abort();
  for(enc=0; enc<4; enc++){
    size_t len = utf8_recode(s, n, (utf8_recode_enc)enc, 0);
    size_t wlen = ref_recode(s, n, enc, want);
    CHECK_EQ("recode length (measured)", len, wlen);
    CHECK_EQ("recode length (written)",
             utf8_recode(s, n, (utf8_recode_enc)enc, got), wlen);
    if( memcmp(got, want, wlen)!=0 ) fail("recode bytes", s, n, enc, 0);
    CHECK_EQ("recode output is well-formed", ref_first_error(got, len), len);
  }
  free(got);
  free(want);
}

/*
** utf8_context() around every ill-formed unit and at the end of X.
*/
static void check_context(const unsigned char *s, size_t n, size_t each_side){
  unsigned char *buf = malloc(UTF8_CONTEXT_MAX(each_side));
  size_t i = 0, len, errors = 0;
  if( !buf ) abort();
  for(;;){
    if( i>=n || ref_decode(s+i, n-i).reason ){
      len = utf8_context(s, n, i, each_side, 0);
      if( len>UTF8_CONTEXT_MAX(each_side) ) fail("context too long", s, n, len, i);
      CHECK_EQ("context length (written)",
               utf8_context(s, n, i, each_side, buf), len);
      CHECK_EQ("context is well-formed", ref_first_error(buf, len), len);
      if( ++errors>64 ) break;   /* enough for one input */
    }
    if( i>=n ) break;
    i += ref_decode(s+i, n-i).length;
  }
  free(buf);
}

/*
** Every check on s[0..n).
*/
static void check_all(const unsigned char *s, size_t n, size_t each_side){
  static const struct { const char *z; size_t n; } repl[] = {
    { "\xEF\xBF\xBD", 3 },     /* U+FFFD */
    { "", 0 },                 /* drop the unit */
    { "?", 1 },
    { "\xF0\x9F\x92\xA9", 4 }, /* a 4-byte character */
  };
  size_t first_error = ref_first_error(s, n);
  size_t units = ref_count_units(s, n), k;
  check_validators(s, n, first_error);
  check_segmentation(s, n);
  check_scan_errors(s, n);
  for(k=0; k<sizeof(repl)/sizeof(repl[0]); k++){
    check_fix(s, n, first_error, (const unsigned char*)repl[k].z, repl[k].n, units);
  }
  check_recode(s, n);
  check_context(s, n, each_side);
}

/*
** The charset guess: any bytes give 'utf-8' exactly when they are
** well-formed, else a candidate that reads them (its decoding has no
** U+FFFD) or none; a group of them picks a candidate; the scores are
** consistent with the pick.
*/
static int has_fffd(const unsigned char *z, size_t n){
  size_t i;
  for(i=0; i+3<=n; i++) if( z[i]==0xEF && z[i+1]==0xBF && z[i+2]==0xBD ) return 1;
  return 0;
}

static void check_guess(const unsigned char *s, size_t n){
  int32_t score[UTF8_GUESS_N];
  uint64_t hash[UTF8_GUESS_N];
  utf8_guess_group g;
  int guess = utf8_guess(s, n), pick, c;
  int valid = utf8_is_valid(s, n);
  if( valid ){
    if( guess!=UTF8_GUESS_UTF8 ) abort();
    return;
  }
  if( guess!=UTF8_GUESS_NONE && (guess<0 || guess>UTF8_GUESS_UTF8 || !utf8_guess_name(guess)) ){
    fprintf(stderr, "utf8_guess: %d out of range\n", guess);
    abort();
  }
  if( guess>=0 && guess<UTF8_GUESS_UTF8 ){
    size_t len = utf8_charset_decode(s, n, (utf8_charset)guess, 0);
    unsigned char *out = malloc(len+1);
    if( !out ) abort();
    utf8_charset_decode(s, n, (utf8_charset)guess, out);
    if( !utf8_is_valid(out, len) || has_fffd(out, len) ){
      fprintf(stderr, "utf8_guess named %s, which cannot read the value\n", utf8_guess_name(guess));
      abort();
    }
    free(out);
  }
  utf8_guess_score(s, n, score, hash);
  pick = utf8_guess_pick(score, hash);
  if( pick!=UTF8_GUESS_NONE && score[pick]==UTF8_GUESS_OUT ) abort();
  for(c=0; c<UTF8_GUESS_N; c++) if( score[c]<0 ) abort();
  utf8_guess_group_init(&g);
  utf8_guess_group_add(&g, score, hash);
  c = utf8_guess_group_pick(&g);
  if( c<0 || c>UTF8_GUESS_UTF8 ) abort();
}

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size){
  unsigned char *copy;
  size_t each_side = size ? data[0] % 16 : 12;
  check_all(data, size, each_side);
  check_guess(data, size);

  /* The same bytes at an odd address, for implementations that align. */
  copy = malloc(size + 1);
  if( !copy ) abort();
  if( size ) memcpy(copy+1, data, size);
  {
    const unsigned char *s = copy+1;
    size_t n = size, count, i;
    const utf8_impl *const *impls = utf8_impl_list(&count);
    size_t want = ref_first_error(s, n);
    for(i=0; i<count; i++){
      if( impls[i]->cpu_supports() ){
        CHECK_EQ(impls[i]->name, impls[i]->find_error(s, n), want);
      }
    }
  }
  free(copy);
  return 0;
}
