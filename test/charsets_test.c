/*
** test/charsets_test.c - the decoding half of the charsets suite: read
** records from stdin, decode each with core/charsets.c, write the result.
** test/charsets_check.py makes the inputs, runs this and compares every
** output with an independent decoder (Python's codecs, glibc iconv).
**
** A record in: one byte mode (0 decode, 1 recode), one byte charset (enum
** utf8_charset), two bytes length (little-endian), the bytes. Out: four
** bytes length (little-endian), the UTF-8. The measuring pass (out NULL)
** is checked against the writing pass on every record: a mismatch exits 2.
** "names" as the only argument lists the canonical names, one per line.
**
** "encode" runs the encoding half (utf8_charset_encode and
** utf8_charset_byteclass against the decoders, exhaustively; the last line
** is "charsets-encode: N passed, N failed"); "encode-speed" times them.
*/
#include "charsets.h"
#include "utf8.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static long n_pass, n_fail;

static void check(int ok, const char *what, int cs, uint32_t cp){
  if( ok ){ n_pass++; return; }
  if( n_fail++<20 ){
    printf("  FAIL %s: %s U+%04X\n", what, cs>=0 ? utf8_charset_name((utf8_charset)cs) : "-",
           (unsigned)cp);
  }
}

/* The UTF-8 of cp (no checks: the test's own, not core's). */
static size_t utf8_of(uint32_t cp, unsigned char *o){
  if( cp<0x80 ){ o[0] = (unsigned char)cp; return 1; }
  if( cp<0x800 ){ o[0] = 0xC0|cp>>6; o[1] = 0x80|(cp&63); return 2; }
  if( cp<0x10000 ){ o[0] = 0xE0|cp>>12; o[1] = 0x80|(cp>>6&63); o[2] = 0x80|(cp&63); return 3; }
  o[0] = 0xF0|cp>>18; o[1] = 0x80|(cp>>12&63); o[2] = 0x80|(cp>>6&63); o[3] = 0x80|(cp&63);
  return 4;
}

/* 1 if cs decodes s[0..n) as the one character cp. */
static int reads_as(utf8_charset cs, const unsigned char *s, size_t n, uint32_t cp){
  unsigned char got[64], want[4];
  size_t len, wlen = utf8_of(cp, want);
  if( n==0 || n>4 ) return 0;
  len = utf8_charset_decode(s, n, cs, got);
  if( len!=wlen || memcmp(got, want, len)!=0 ) return 0;
  if( utf8_charset_is_multibyte(cs) && s[0]>=0x80 ){
    uint32_t c[2];
    if( utf8_charset_step(s, n, cs, c)!=n || c[0]!=cp || c[1]!=0 ) return 0;
  }
  return 1;
}

/* The one character (not an error) cs reads in s[0..n), or -1. */
static long one_char(utf8_charset cs, const unsigned char *s, size_t n){
  unsigned char got[64];
  size_t len;
  utf8_unit u;
  if( utf8_charset_is_multibyte(cs) && s[0]>=0x80 ){
    uint32_t c[2];
    if( utf8_charset_step(s, n, cs, c)!=n || c[1]!=0 || c[0]==0xFFFD ) return -1;
  }
  len = utf8_charset_decode(s, n, cs, got);
  u = utf8_decode_unit(got, len);
  if( u.reason!=UTF8_OK || u.length!=len || u.codepoint==0xFFFD ) return -1;
  return (long)u.codepoint;
}

/* Every code point in every charset: what encode writes reads back as it. */
static void check_roundtrip(void){
  int cs;
  uint32_t cp;
  for(cs=0; cs<UTF8_CS_COUNT; cs++){
    long hits = 0, bad = 0;
    for(cp=0; cp<0x110000; cp++){
      unsigned char out[8] = { 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE, 0xEE };
      size_t k = utf8_charset_encode((utf8_charset)cs, cp, out);
      int ok;
      if( k==0 ){
        ok = cp>=0x80;
      }else{
        hits++;
        ok = k<=4 && out[k]==0xEE && reads_as((utf8_charset)cs, out, k, cp)
          && !(cp>=0xD800 && cp<=0xDFFF)
          && (cp>=0x80 || (k==1 && out[0]==cp))
          && (cs>=UTF8_CS_FIRST_MULTI || k==1);
      }
      if( cs==UTF8_CS_GBK ){           /* gbk: gb18030's one- and two-byte part */
        unsigned char o2[4];
        size_t k2 = utf8_charset_encode(UTF8_CS_GB18030, cp, o2);
        ok = ok && (k>0)==(k2>0 && k2<=2)
          && (k==0 || cp==0x20AC || (k==k2 && memcmp(out, o2, k)==0));
      }
      if( !ok && bad++<3 ) check(0, "encode then decode", cs, cp);
    }
    check(bad==0 && hits>=(cs<UTF8_CS_FIRST_MULTI ? 128+64 : 7000), "round trip count", cs, (uint32_t)hits);
    check(utf8_charset_encode((utf8_charset)cs, 0x110000, (unsigned char[4]){0})==0
          && utf8_charset_encode((utf8_charset)cs, 0xFFFFFFFFu, (unsigned char[4]){0})==0,
          "above U+10FFFF", cs, 0x110000);
  }
  check(utf8_charset_encode(UTF8_CS_COUNT, 0x41, (unsigned char[4]){0})==0
        && utf8_charset_encode((utf8_charset)-1, 0x41, (unsigned char[4]){0})==0,
        "charset out of range", -1, 0x41);
}

/* s[0..n), a character cs reads (not an error): encode gives it back. */
static void complete_one(utf8_charset cs, const unsigned char *s, size_t n, long *bad){
  long cp = one_char(cs, s, n);
  unsigned char out[4];
  size_t k;
  if( cp<0 ) return;
  k = utf8_charset_encode(cs, (uint32_t)cp, out);
  if( cs==UTF8_CS_GBK && n==4 ){
    /* gbk encodes a four-byte character only when one or two bytes read as it */
    if( k==0 ) return;
  }
  if( k==0 || !reads_as(cs, out, k, (uint32_t)cp) ){
    if( (*bad)++<3 ) check(0, "a character the decoder reads is not encoded", cs, (uint32_t)cp);
  }
}

/* Every byte, every pair (multi-byte), EUC-JP's 8F triples and the
** whole four-byte space of gb18030 (and gbk): each character read is
** encoded. */
static void check_complete(void){
  int cs;
  unsigned a, b, c, d;
  for(cs=0; cs<UTF8_CS_COUNT; cs++){
    long bad = 0;
    unsigned char s[4];
    for(a=0; a<256; a++){ s[0] = (unsigned char)a; complete_one((utf8_charset)cs, s, 1, &bad); }
    if( cs>=UTF8_CS_FIRST_MULTI ){
      for(a=0x80; a<256; a++) for(b=0; b<256; b++){
        s[0] = (unsigned char)a; s[1] = (unsigned char)b;
        complete_one((utf8_charset)cs, s, 2, &bad);
      }
    }
    if( cs==UTF8_CS_EUC_JP ){
      for(b=0xA1; b<0xFF; b++) for(c=0xA1; c<0xFF; c++){
        s[0] = 0x8F; s[1] = (unsigned char)b; s[2] = (unsigned char)c;
        complete_one((utf8_charset)cs, s, 3, &bad);
      }
    }
    if( cs==UTF8_CS_GB18030 || cs==UTF8_CS_GBK ){
      for(a=0x81; a<0xFF; a++) for(b=0x30; b<0x3A; b++)
      for(c=0x81; c<0xFF; c++) for(d=0x30; d<0x3A; d++){
        s[0] = (unsigned char)a; s[1] = (unsigned char)b;
        s[2] = (unsigned char)c; s[3] = (unsigned char)d;
        complete_one((utf8_charset)cs, s, 4, &bad);
      }
    }
    check(bad==0, "every character read is encoded", cs, 0);
  }
}

/* Where several sequences read as one code point: the one chosen. */
static void check_choices(void){
  static const struct { utf8_charset cs; uint32_t cp; const char *want; } v[] = {
    { UTF8_CS_WINDOWS_1252, 0x0081, "\x81" },        /* WHATWG's C1 mapping */
    { UTF8_CS_WINDOWS_1252, 0x20AC, "\x80" },
    { UTF8_CS_WINDOWS_1252, 0x00E9, "\xE9" },
    { UTF8_CS_LATIN1,       0x0080, "\x80" },
    { UTF8_CS_LATIN1,       0x20AC, "" },
    { UTF8_CS_WINDOWS_874,  0xFFFD, "" },            /* an undefined byte is an error */
    { UTF8_CS_MACINTOSH,    0xF8FF, "\xF0" },
    { UTF8_CS_GB18030,      0x3000, "\xA1\xA1" },     /* not A3 A0 */
    { UTF8_CS_GB18030,      0x20AC, "\xA2\xE3" },     /* not 80 */
    { UTF8_CS_GBK,          0x20AC, "\x80" },
    { UTF8_CS_GB18030,      0x0080, "\x81\x30\x81\x30" },
    { UTF8_CS_GBK,          0x0080, "" },
    { UTF8_CS_GB18030,      0xE7C7, "\x81\x35\xF4\x37" },
    { UTF8_CS_GB18030,      0x1E3F, "\xA8\xBC" },
    { UTF8_CS_GB18030,      0xFE10, "\xA6\xD9" },     /* GB18030-2022, not 84 31 82 36 */
    { UTF8_CS_GB18030,      0xE5E5, "" },
    { UTF8_CS_GB18030,      0xE78D, "" },            /* A6 D9 before 2022 */
    { UTF8_CS_GB18030,      0x9FB4, "\xFE\x59" },     /* not 82 35 91 32 */
    { UTF8_CS_BIG5,         0xFFFD, "" },
    { UTF8_CS_GB18030,      0xFFFD, "\x84\x31\xA4\x37" },
    { UTF8_CS_GBK,          0xFFFD, "" },
    { UTF8_CS_GB18030,      0x10000, "\x90\x30\x81\x30" },
    { UTF8_CS_GB18030,      0x10FFFF, "\xE3\x32\x9A\x35" },
    { UTF8_CS_GB18030,      0xD800, "" },
    { UTF8_CS_BIG5,         0x2550, "\xF9\xF9" },     /* the last pointer */
    { UTF8_CS_BIG5,         0x5341, "\xA4\x51" },
    { UTF8_CS_BIG5,         0x7BB8, "\xBA\xE6" },     /* not 8E 69 (HKSCS) */
    { UTF8_CS_BIG5,         0x8503, "\x92\x42" },     /* both HKSCS: the lowest */
    { UTF8_CS_BIG5,         0x00CA, "\x88\x66" },
    { UTF8_CS_BIG5,         0x0304, "" },
    { UTF8_CS_SHIFT_JIS,    0x0080, "\x80" },
    { UTF8_CS_SHIFT_JIS,    0xFF61, "\xA1" },
    { UTF8_CS_SHIFT_JIS,    0x2252, "\x81\xE0" },     /* not 87 90 */
    { UTF8_CS_SHIFT_JIS,    0xFFE2, "\x81\xCA" },
    { UTF8_CS_SHIFT_JIS,    0x7E8A, "\xFA\x5C" },     /* not ED 40 */
    { UTF8_CS_SHIFT_JIS,    0xE000, "\xF0\x40" },
    { UTF8_CS_SHIFT_JIS,    0xE757, "\xF9\xFC" },
    { UTF8_CS_SHIFT_JIS,    0x00A5, "" },
    { UTF8_CS_SHIFT_JIS,    0x203E, "" },
    { UTF8_CS_SHIFT_JIS,    0x2212, "" },
    { UTF8_CS_SHIFT_JIS,    0xFF0D, "\x81\x7C" },
    { UTF8_CS_EUC_JP,       0x7E8A, "\xF9\xA1" },
    { UTF8_CS_EUC_JP,       0xFF61, "\x8E\xA1" },
    { UTF8_CS_EUC_JP,       0x00A1, "\x8F\xA2\xC2" },  /* JIS X 0212 only */
    { UTF8_CS_EUC_JP,       0x00A5, "" },
    { UTF8_CS_EUC_JP,       0xE000, "" },
    { UTF8_CS_EUC_KR,       0xAC00, "\xB0\xA1" },
    { UTF8_CS_EUC_KR,       0xAC02, "\x81\x41" },
  };
  size_t i;
  for(i=0; i<sizeof(v)/sizeof(v[0]); i++){
    unsigned char out[4];
    size_t k = utf8_charset_encode(v[i].cs, v[i].cp, out);
    check(k==strlen(v[i].want) && memcmp(out, v[i].want, k)==0, "choice", v[i].cs, v[i].cp);
  }
}

/* The byte-class masks against utf8_charset_encode, every code point. */
static void check_byteclass(void){
  uint32_t cp;
  long bad = 0;
  static const uint32_t extra[] = { 0x110000, 0x7FFFFFFF, 0xFFFFFFFF };
  for(cp=0; cp<0x110000+3; cp++){
    uint32_t c = cp<0x110000 ? cp : extra[cp-0x110000];
    uint32_t got[5] = { 1, 2, 3, 4, 5 }, want[5] = { 0, 0, 0, 0, 0 };
    int cs;
    for(cs=0; cs<UTF8_CS_FIRST_MULTI; cs++){
      unsigned char out[4];
      int cls = -1;
      if( utf8_charset_encode((utf8_charset)cs, c, out)==1 ){
        unsigned b = out[0];
        cls = b<0x80 ? 0 : b<0xC0 ? 1 : (b>=0xC2 && b<=0xDF) ? 2 : (b>=0xE0 && b<=0xEF) ? 3
            : (b>=0xF0 && b<=0xF4) ? 4 : -1;
      }
      if( cls>=0 ) want[cls] |= 1u<<cs;
    }
    utf8_charset_byteclass(c, got);
    if( memcmp(got, want, sizeof(want))!=0 && bad++<3 ) check(0, "byteclass", -1, c);
  }
  check(bad==0, "byteclass, every code point", -1, 0);
}

static double now(void){
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec + t.tv_nsec*1e-9;
}

/* ns per call: single-byte encode, byteclass, multi-byte encode, over a
** mix of non-ASCII code points: letters of the single-byte repertoires
** (hits in some charsets, misses in the others), other BMP code points
** (misses, or hits in the multi-byte charsets). */
static void speed(void){
  enum { N = 4096 };
  static uint32_t cps[N];
  uint32_t x = 12345, sink = 0, mask[5];
  unsigned char out[4];
  int i, r, cs, reps = 2000;
  double t;
  for(i=0; i<N; i++){
    x = x*1103515245u + 12345u;
    switch( (x>>16)%4 ){
      case 0:  cps[i] = 0x80 + (x>>8)%0x480; break;        /* Latin, Greek, Cyrillic... */
      case 1:  cps[i] = 0x2000 + (x>>8)%0x600; break;      /* punctuation, box drawing */
      case 2:  cps[i] = 0x4E00 + (x>>8)%0x5000; break;     /* CJK */
      default: cps[i] = 0xA0 + (x>>8)%0x60; break;         /* Latin-1 */
    }
  }
  t = now();
  for(r=0; r<reps; r++) for(cs=0; cs<UTF8_CS_FIRST_MULTI; cs++) for(i=0; i<N; i++){
    sink += (uint32_t)utf8_charset_encode((utf8_charset)cs, cps[i], out) + out[0];
  }
  t = now() - t;
  printf("encode, single-byte: %.2f ns per call\n", t*1e9/((double)reps*UTF8_CS_FIRST_MULTI*N));
  t = now();
  for(r=0; r<reps*10; r++) for(i=0; i<N; i++){ utf8_charset_byteclass(cps[i], mask); sink += mask[1]; }
  t = now() - t;
  printf("byteclass: %.2f ns per call\n", t*1e9/((double)reps*10*N));
  for(cs=UTF8_CS_FIRST_MULTI; cs<UTF8_CS_COUNT; cs++){
    t = now();
    for(r=0; r<reps/10; r++) for(i=0; i<N; i++){
      sink += (uint32_t)utf8_charset_encode((utf8_charset)cs, cps[i], out) + out[0];
    }
    t = now() - t;
    printf("encode, %s: %.2f ns per call\n", utf8_charset_name((utf8_charset)cs), t*1e9/((double)reps/10*N));
  }
  printf("(%u)\n", (unsigned)sink);
}

int main(int argc, char **argv){
  unsigned char hdr[4], in[65536], out[4*65536+8];
  if( argc>1 && strcmp(argv[1], "names")==0 ){
    int cs;
    for(cs=0; cs<UTF8_CS_COUNT; cs++) printf("%s\n", utf8_charset_name((utf8_charset)cs));
    return 0;
  }
  if( argc>1 && strcmp(argv[1], "encode")==0 ){
    check_roundtrip();
    check_complete();
    check_choices();
    check_byteclass();
    printf("charsets-encode: %ld passed, %ld failed\n", n_pass, n_fail);
    return n_fail!=0;
  }
  if( argc>1 && strcmp(argv[1], "encode-speed")==0 ){
    speed();
    return 0;
  }
  while( fread(hdr, 1, 4, stdin)==4 ){
    size_t n = hdr[2] | (size_t)hdr[3]<<8, len, want;
    utf8_charset cs = (utf8_charset)hdr[1];
    if( fread(in, 1, n, stdin)!=n ) return 3;
    if( hdr[0]==0 ){
      want = utf8_charset_decode(in, n, cs, 0);
      len = utf8_charset_decode(in, n, cs, out);
    }else{
      want = utf8_charset_recode(in, n, cs, 0);
      len = utf8_charset_recode(in, n, cs, out);
    }
    if( len!=want ){
      fprintf(stderr, "charsets_test: measured %zu, wrote %zu\n", want, len);
      return 2;
    }
    hdr[0] = (unsigned char)len; hdr[1] = (unsigned char)(len>>8);
    hdr[2] = (unsigned char)(len>>16); hdr[3] = (unsigned char)(len>>24);
    fwrite(hdr, 1, 4, stdout);
    fwrite(out, 1, len, stdout);
  }
  return 0;
}
