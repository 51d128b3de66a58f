/*
** test/context_test.c - the C tests of utf8_context() (core/context.c),
** no SQLite.
**
**   1. Known vectors: the window at both ends of the input, multibyte
**      characters, every kind of replacement (ill-formed unit, C0 control,
**      DEL, C1 control), err_offset past the end.
**   2. Every string of length 0 to 4 over 23 bytes chosen at the
**      boundaries of Table 3-7, and 100,000 random strings of length up to
**      40: at every unit boundary and for 0 to 5 characters each side,
**      the excerpt is compared with one built from a forward segmentation
**      (which is what the backward walk of core/context.c must agree with),
**      measuring gives the length writing gives, the excerpt is
**      well-formed and within UTF8_CONTEXT_MAX.
**
** Build: cc -Icore test/context_test.c core/context.c core/decode.c
**        core/fix.c core/recode.c core/dispatch.c [SIMD files]
** The last line is "context: N passed, N failed".
*/
#include "utf8.h"
#include "context.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"

static long n_pass, n_fail;   /* single checks */
static int n_tests_pass, n_tests_fail;  /* tests: a vector, or a whole sweep */

/* Close a test that began when n_fail was fail_before. */
static void end_test(long fail_before){
  if( n_fail==fail_before ) n_tests_pass++; else n_tests_fail++;
}

/* Record one check; print the first 20 failures with their input. */
static void check(int ok, const char *what, const unsigned char *s, size_t n,
                  size_t err, size_t k, const unsigned char *want, size_t nwant,
                  const unsigned char *got, size_t ngot){
  char b1[1024], b2[1024], b3[1024];
  if( ok ){ n_pass++; return; }
  n_fail++;
  if( n_fail>20 ) return;
  printf("FAILED %s: input %s err_offset %zu chars_each_side %zu\n"
         "  expected: %s\n  got:      %s\n", what, hex(s, n, b1), err, k,
         hex(want, nwant, b2), hex(got, ngot, b3));
}

/*
** The reference: segment s forward, find the unit at err, and render the
** units from k before it to k after it.
*/
static size_t reference(const unsigned char *s, size_t n, size_t err,
                        size_t k, unsigned char *out){
  size_t starts[128];
  size_t nu = 0, i = 0, e = (size_t)-1, u, o = 0;
  while( i<n ){
    if( i==err ) e = nu;
    starts[nu++] = i;
    i += utf8_decode_unit(s+i, n-i).length;
  }
  if( err==n ) e = nu;
  if( e==(size_t)-1 ) return 0;
  for(u = e>k ? e-k : 0; u<nu && u<=e+k; u++){
    utf8_unit x = utf8_decode_unit(s+starts[u], n-starts[u]);
    if( x.reason==UTF8_OK && ((x.codepoint>=0x202A && x.codepoint<=0x202E)
        || (x.codepoint>=0x2066 && x.codepoint<=0x2069) || x.codepoint==0x061C
        || x.codepoint==0x200E || x.codepoint==0x200F) ){
      o += (size_t)sprintf((char*)out+o, "<U+%04X>", (unsigned)x.codepoint);
    }else if( x.reason!=UTF8_OK || (x.codepoint>=0x80 && x.codepoint<=0x9F) ){
      memcpy(out+o, "\xEF\xBF\xBD", 3); o += 3;
    }else if( x.codepoint<0x20 ){
      out[o++] = 0xE2; out[o++] = 0x90; out[o++] = (unsigned char)(0x80+x.codepoint);
    }else if( x.codepoint==0x7F ){
      memcpy(out+o, "\xE2\x90\xA1", 3); o += 3;
    }else{
      memcpy(out+o, s+starts[u], x.length); o += x.length;
    }
  }
  return o;
}

/* Compare utf8_context() with the reference at every boundary of s. */
static void sweep(const unsigned char *s, size_t n, size_t kmax){
  unsigned char want[1024], got[1024];
  size_t i = 0, k;
  for(;;){
    for(k=0; k<=kmax; k++){
      size_t nwant = reference(s, n, i, k, want);
      size_t nmeasure = utf8_context(s, n, i, k, 0);
      size_t ngot = utf8_context(s, n, i, k, got);
      check(nwant==ngot && memcmp(want, got, ngot)==0, "excerpt",
            s, n, i, k, want, nwant, got, ngot);
      check(nmeasure==ngot, "measure", s, n, i, k, want, nmeasure, got, ngot);
      check(utf8_is_valid(got, ngot) && ngot<=UTF8_CONTEXT_MAX(k),
            "well-formed", s, n, i, k, want, nwant, got, ngot);
    }
    if( i>=n ) break;
    i += utf8_decode_unit(s+i, n-i).length;
  }
}

int main(void){
  static const struct { const char *in; size_t err, k; const char *out; } aV[] = {
    /* the window cut at both ends */
    { "61 62 63 FF 64 65 66",      3, 1, "63 EFBFBD 64" },
    { "61 62 63 FF 64 65 66",      3, 5, "616263 EFBFBD 646566" },
    { "FF 64",                     0, 2, "EFBFBD 64" },
    { "61 FF",                     1, 0, "EFBFBD" },
    /* multibyte characters count as one; a maximal subpart too */
    { "C3A9 E282AC F09F9880 F18080 41", 9, 2, "E282AC F09F9880 EFBFBD 41" },
    /* controls: NUL, TAB, LF, DEL, U+0080, U+009F; U+00A0 is copied */
    { "00 09 0A 7F C280 C29F C2A0 C0", 10, 7,
      "E29080 E29089 E2908A E290A1 EFBFBD EFBFBD C2A0 EFBFBD" },
    /* a run of continuation bytes before the unit: each is one unit */
    { "80 80 80 80 80 41 C0",      6, 3, "EFBFBD EFBFBD 41 EFBFBD" },
    { "F1 80 80 80 80 C0",         5, 1, "EFBFBD EFBFBD" },
    /* bidirectional controls are written out: U+202E, U+2066, U+200F */
    { "41 E280AE 42 C0",           5, 2, "3C552B323032453E 42 EFBFBD" },
    { "E281A6 C0 E2808F",          3, 1, "3C552B323036363E EFBFBD 3C552B323030463E" },
    /* err_offset at or past the end */
    { "41 42",                     2, 1, "42" },
    { "41 42",                     3, 1, "" },
  };
  static const unsigned char aByte[] = {
    0x00, 0x09, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2,
    0xC3, 0xDF, 0xE0, 0xE1, 0xE2, 0xED, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFF,
    0xAE,                               /* E2 80 AE is U+202E */
  };
  const size_t nByte = sizeof(aByte);
  unsigned char s[64], want[256], got[256];
  size_t v, len, i;
  unsigned long r = 1;

  long before;
  for(v=0; v<sizeof(aV)/sizeof(aV[0]); v++){
    size_t n = unhex(aV[v].in, s);
    before = n_fail;
    size_t nwant = unhex(aV[v].out, want);
    size_t ngot = utf8_context(s, n, aV[v].err, aV[v].k, got);
    check(ngot==nwant && memcmp(got, want, ngot)==0, "vector",
          s, n, aV[v].err, aV[v].k, want, nwant, got, ngot);
    end_test(before);
  }

  before = n_fail;
  for(len=0; len<=4; len++){
    size_t total = 1, c;
    for(i=0; i<len; i++) total *= nByte;
    for(c=0; c<total; c++){
      size_t x = c;
      for(i=0; i<len; i++){ s[i] = aByte[x % nByte]; x /= nByte; }
      sweep(s, len, 3);
    }
  }
  end_test(before);

  for(v=0; v<100000; v++){
    size_t n;
    r = r*6364136223846793005ul + 1442695040888963407ul;
    n = (r>>33) % 41;
    for(i=0; i<n; i++){
      r = r*6364136223846793005ul + 1442695040888963407ul;
      s[i] = (r>>40) & 1 ? aByte[(r>>41) % nByte] : (unsigned char)(r>>48);
    }
    sweep(s, n, 5);
  }
  end_test(before);

  printf("context: %ld single checks, %ld failed\n", n_pass+n_fail, n_fail);
  printf("context: %d passed, %d failed\n", n_tests_pass, n_tests_fail);
  return n_fail!=0;
}
