/*
** test/simd_test.c - every validator implementation this CPU runs, checked
** against the scalar core (utf8_find_error_scalar) and against a small
** byte-by-byte reference written here from the ABNF of RFC 3629 section 4.
**
**     simd_test [--quick | SCALE]
**
** SCALE (default 1) multiplies the number of random values (100,000 at 1)
** and of exhaustive 3-byte placements; --quick is 0.2, for sanitizers. The last line
** is "simd: N passed, N failed"; the exit status is 1 when any failed.
**
** WHAT IT FEEDS THEM
**
**   - every string of 1 and 2 bytes after 0-66 ASCII bytes, every string
**     of 3 bytes after a few prefixes that put it across a 16-, 32- or
**     64-byte block boundary, and 4-byte strings over the bytes where the
**     ranges of RFC 3629 begin and end;
**   - random values of 0-4096 bytes (ASCII, 2-, 3- and 4-byte characters
**     in several mixes) with errors of all six reasons written at offsets
**     that visit every value modulo 64, at the edges of 16/32/64-byte
**     blocks, across a 4 KiB page boundary, and sequences cut short at
**     the very end;
**   - utf8_count_units on the well-formed values of 64 bytes and more,
**     and every implementation's counting validator (find_error_count:
**     the same offset, and the characters before it) on every value;
**   - each value is copied so that it ends where a PROT_NONE page begins,
**     or starts where one ends, or straddles a page boundary, so a read
**     past either end crashes the test instead of passing unnoticed.
*/
#include "utf8.h"
#include "impl.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* ---- the reference: RFC 3629 section 4, one row per alternative ---- */

/*
** UTF8-char as the ABNF spells it: a lead byte range, the range of the
** byte after it, and the length; every later byte is UTF8-tail (80-BF).
*/
static const struct abnf_row {
  uint8_t lead_lo, lead_hi;       /* the first byte */
  uint8_t second_lo, second_hi;   /* the second byte (when len>1) */
  uint8_t len;                    /* bytes in the character */
} abnf[] = {
  { 0x00, 0x7F, 0x00, 0x00, 1 },  /* UTF8-1 = %x00-7F */
  { 0xC2, 0xDF, 0x80, 0xBF, 2 },  /* UTF8-2 = %xC2-DF UTF8-tail */
  { 0xE0, 0xE0, 0xA0, 0xBF, 3 },  /* UTF8-3 = %xE0 %xA0-BF UTF8-tail */
  { 0xE1, 0xEC, 0x80, 0xBF, 3 },  /*        / %xE1-EC 2( UTF8-tail ) */
  { 0xED, 0xED, 0x80, 0x9F, 3 },  /*        / %xED %x80-9F UTF8-tail */
  { 0xEE, 0xEF, 0x80, 0xBF, 3 },  /*        / %xEE-EF 2( UTF8-tail ) */
  { 0xF0, 0xF0, 0x90, 0xBF, 4 },  /* UTF8-4 = %xF0 %x90-BF 2( UTF8-tail ) */
  { 0xF1, 0xF3, 0x80, 0xBF, 4 },  /*        / %xF1-F3 3( UTF8-tail ) */
  { 0xF4, 0xF4, 0x80, 0x8F, 4 },  /*        / %xF4 %x80-8F 2( UTF8-tail ) */
};
#define ABNF_ROWS (sizeof(abnf)/sizeof(abnf[0]))

static int is_tail(unsigned b){ return b>=0x80 && b<=0xBF; }

/* The row whose lead range holds b, or NULL. */
static const struct abnf_row *abnf_lead(unsigned b){
  size_t r;
  for(r=0; r<ABNF_ROWS; r++){
    if( b>=abnf[r].lead_lo && b<=abnf[r].lead_hi ) return &abnf[r];
  }
  return 0;
}

/*
** The reason docs/reference.md gives the ill-formed unit at s[0..n): no row starts
** with s[0], or the row breaks at some byte.
*/
static int ref_reason(const unsigned char *s, size_t n){
  const struct abnf_row *row = abnf_lead(s[0]);
  size_t k;
  if( !row ){
    if( is_tail(s[0]) ) return UTF8_UNEXPECTED_CONTINUATION;
    if( s[0]<0xC2 ) return UTF8_OVERLONG;           /* C0 C1 */
    return UTF8_TOO_LARGE;                          /* F5-FF */
  }
  if( n<2 ) return UTF8_TRUNCATED;
  if( s[1]<row->second_lo || s[1]>row->second_hi ){
    if( !is_tail(s[1]) ) return UTF8_MISSING_CONTINUATION;
    if( s[1]<row->second_lo ) return UTF8_OVERLONG;  /* E0 80-9F, F0 80-8F */
    return s[0]==0xED ? UTF8_SURROGATE : UTF8_TOO_LARGE;
  }
  for(k=2; k<row->len; k++){
    if( k>=n ) return UTF8_TRUNCATED;
    if( !is_tail(s[k]) ) return UTF8_MISSING_CONTINUATION;
  }
  return UTF8_OK;
}

/* Length of the UTF8-char at s[0..n), or 0 when none matches there. */
static size_t ref_char(const unsigned char *s, size_t n){
  const struct abnf_row *row = abnf_lead(s[0]);
  size_t k;
  if( !row || n<row->len ) return 0;
  if( row->len>1 && (s[1]<row->second_lo || s[1]>row->second_hi) ) return 0;
  for(k=2; k<row->len; k++){
    if( !is_tail(s[k]) ) return 0;
  }
  return row->len;
}

/* Offset of the first byte where no UTF8-char matches, or n. */
static size_t ref_first_error(const unsigned char *s, size_t n){
  size_t i = 0;
  while( i<n ){
    size_t k = ref_char(s+i, n-i);
    if( k==0 ) return i;
    i += k;
  }
  return n;
}

/* Characters in s[0..n), which must be well-formed. */
static size_t ref_count_chars(const unsigned char *s, size_t n){
  size_t i = 0, count = 0;
  while( i<n ){
    i += ref_char(s+i, n-i);
    count++;
  }
  return count;
}

/* ---- the implementations under test -------------------------------- */

typedef struct subject {
  const char *name;
  utf8_find_error_fn fn;
  utf8_find_error_count_fn count_fn;  /* the same, counting characters */
} subject;

static subject subjects[16];
static int n_subjects;

/*
** Every compiled implementation the CPU supports, plus the dispatched
** entry point (whatever it chose) under the name "dispatch".
*/
static void collect_subjects(void){
  size_t count, i;
  const utf8_impl *const *list = utf8_impl_list(&count);
  for(i=0; i<count && n_subjects<15; i++){
    if( !list[i]->cpu_supports() ){
      printf("# %s: not supported by this CPU, skipped\n", list[i]->name);
      continue;
    }
    subjects[n_subjects].name = list[i]->name;
    subjects[n_subjects].fn = list[i]->find_error;
    subjects[n_subjects].count_fn = list[i]->find_error_count;
    n_subjects++;
  }
  subjects[n_subjects].name = "dispatch";
  subjects[n_subjects].fn = utf8_find_error;
  subjects[n_subjects].count_fn = utf8_find_error_count;
  n_subjects++;
  printf("# testing:");
  for(i=0; i<(size_t)n_subjects; i++) printf(" %s", subjects[i].name);
  printf(" (dispatch chose %s)\n", utf8_impl_name());
}

/* ---- bookkeeping ---------------------------------------------------- */

static long n_pass, n_fail;                /* single checks */
static int n_tests_pass, n_tests_fail;      /* tests: a phase, or a reason seen */

/* Close a test that began when n_fail was fail_before. */
static void end_test(long fail_before){
  if( n_fail==fail_before ) n_tests_pass++; else n_tests_fail++;
}
static long reason_seen[UTF8_REASON_COUNT];

/* The input in hex, all of it when short, else around the two offsets. */
static void print_hex(const unsigned char *s, size_t n, size_t a, size_t b){
  size_t lo = a<b ? a : b, hi = a<b ? b : a, i;
  size_t from = lo>16 ? lo-16 : 0, to = hi+16<n ? hi+16 : n;
  if( n<=96 ){ from = 0; to = n; }
  printf("  input (%zu bytes)%s:", n, from>0||to<n ? ", excerpt" : "");
  for(i=from; i<to; i++){
    if( (i-from)%32==0 ) printf("\n   [%5zu]", i);
    printf(" %02X", s[i]);
  }
  printf("\n");
}

static void fail(const char *what, const char *impl, const unsigned char *s,
                 size_t n, size_t expected, size_t actual){
  n_fail++;
  if( n_fail>20 ) return;
  printf("FAIL %s: impl %s: expected %zu, actual %zu\n", what, impl, expected, actual);
  print_hex(s, n, expected, actual);
}

/* ---- memory with guard pages ---------------------------------------- */

/*
** [guard][GUARD_DATA_PAGES pages][guard], the guards PROT_NONE. A value
** copied to the end of the data touches the back guard with its last
** byte; one copied to the start touches the front guard with its first.
*/
#define GUARD_DATA_PAGES 3
static unsigned char *data_lo, *data_hi;  /* the data pages */
static size_t page;

static void guard_init(void){
  unsigned char *m;
  page = (size_t)sysconf(_SC_PAGESIZE);
  m = mmap(0, (GUARD_DATA_PAGES+2)*page, PROT_READ|PROT_WRITE,
           MAP_PRIVATE|MAP_ANONYMOUS, -1, 0);
  if( m==MAP_FAILED ){ perror("mmap"); exit(2); }
  if( mprotect(m, page, PROT_NONE) || mprotect(m+(GUARD_DATA_PAGES+1)*page, page, PROT_NONE) ){
    perror("mprotect");
    exit(2);
  }
  data_lo = m+page;
  data_hi = m+(GUARD_DATA_PAGES+1)*page;
}

/* ---- one check ------------------------------------------------------ */

enum { AT_END, AT_START, ACROSS_PAGE };

/*
** Copy v[0..n) into guarded memory as placement says (for ACROSS_PAGE,
** so that byte cut is the first of the second data page), then check
** every subject against the reference.
*/
static void check(const char *what, const unsigned char *v, size_t n,
                  int placement, size_t cut){
  unsigned char *s;
  size_t expected, scalar, got, chars;
  int j;
  switch( placement ){
    case AT_START:    s = data_lo; break;
    case ACROSS_PAGE: s = data_lo + page - (cut<=n ? cut : n); break;
    default:          s = data_hi - n; break;
  }
  memcpy(s, v, n);
  expected = ref_first_error(s, n);
  if( expected<n ){
    int reason = ref_reason(s+expected, n-expected);
    utf8_unit u = utf8_decode_unit(s+expected, n-expected);
    reason_seen[reason]++;
    if( u.reason!=reason ){
      n_fail++;
      printf("FAIL %s: utf8_decode_unit at %zu: expected reason %s, actual %s\n", what,
             expected, utf8_reason_text((utf8_reason)reason),
             u.reason ? utf8_reason_text((utf8_reason)u.reason) : "none");
      print_hex(s, n, expected, expected);
    }
  }
  scalar = utf8_find_error_scalar(s, n);
  if( scalar!=expected ) fail(what, "scalar vs the reference", s, n, expected, scalar);
  if( expected==n && n>=64 ){
    /* utf8_count_units counts the characters of a valid stretch in words */
    size_t chars = ref_count_chars(s, n);
    got = utf8_count_units(s, n);
    if( got!=chars ) fail(what, "utf8_count_units", s, n, chars, got); else n_pass++;
  }
  /* The scalar validator is one of the subjects, so this also checks it. */
  chars = ref_count_chars(s, expected);
  for(j=0; j<n_subjects; j++){
    size_t got_chars = (size_t)-1;
    got = subjects[j].fn(s, n);
    if( got!=expected ) fail(what, subjects[j].name, s, n, expected, got);
    else if( got!=scalar ) fail(what, subjects[j].name, s, n, scalar, got);
    else n_pass++;
    /* counting: the same offset, and the characters before it */
    got = subjects[j].count_fn(s, n, &got_chars);
    if( got!=expected ) fail(what, subjects[j].name, s, n, expected, got);
    else if( got_chars!=chars ) fail(what, "characters before the error", s, n, chars, got_chars);
    else n_pass++;
  }
}

/* ---- exhaustive short strings --------------------------------------- */

/*
** Every 1- and 2-byte string after 0..66 bytes of ASCII, so each pair
** sits across every block boundary up to 64; and every 3-byte string
** after prefixes that put it across the 16-, 32- and 64-byte boundaries.
*/
static void exhaustive_short(double scale){
  static const size_t prefixes3[] = { 0, 62, 14, 31, 15, 30, 61, 63 };
  unsigned char v[80];
  size_t pre, k;
  unsigned a, b, c;
  memset(v, 'a', sizeof(v));
  for(pre=0; pre<=66; pre++){
    for(a=0; a<256; a++){
      v[pre] = (unsigned char)a;
      check("exhaustive 1-byte", v, pre+1, AT_END, 0);
      for(b=0; b<256; b++){
        v[pre+1] = (unsigned char)b;
        check("exhaustive 2-byte", v, pre+2, AT_END, 0);
      }
    }
    memset(v, 'a', sizeof(v));
  }
  k = (size_t)(scale*2+0.5);
  if( k<1 ) k = 1;
  if( k>sizeof(prefixes3)/sizeof(prefixes3[0]) ) k = sizeof(prefixes3)/sizeof(prefixes3[0]);
  while( k-- ){
    pre = prefixes3[k];
    for(a=0; a<256; a++) for(b=0; b<256; b++) for(c=0; c<256; c++){
      v[pre] = (unsigned char)a;
      v[pre+1] = (unsigned char)b;
      v[pre+2] = (unsigned char)c;
      check("exhaustive 3-byte", v, pre+3, (a^b^c)&1 ? AT_END : AT_START, 0);
    }
    memset(v, 'a', sizeof(v));
  }
}

/*
** 4- and 5-byte strings over the bytes where the ranges of Table 3-7 begin
** and end, after prefixes across a 64-byte boundary.
*/
static void edge_bytes_strings(void){
  static const unsigned char edge[] = {
    0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2,
    0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF3, 0xF4, 0xF5, 0xFF
  };
  enum { E = sizeof(edge) };
  static const size_t prefixes[] = { 0, 13, 29, 61, 62 };
  unsigned char v[80];
  size_t p, x;
  memset(v, 'a', sizeof(v));
  for(p=0; p<sizeof(prefixes)/sizeof(prefixes[0]); p++){
    size_t pre = prefixes[p];
    for(x=0; x<(size_t)E*E*E*E; x++){
      v[pre] = edge[x%E];
      v[pre+1] = edge[x/E%E];
      v[pre+2] = edge[x/E/E%E];
      v[pre+3] = edge[x/E/E/E];
      check("edge bytes, 4", v, pre+4, AT_END, 0);
      check("edge bytes, 4 + ASCII", v, pre+5, AT_END, 0);
    }
  }
}

/* ---- random values -------------------------------------------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;

/* xorshift64*: fast, and the same sequence on every run. */
static uint64_t rnd(void){
  rng_state ^= rng_state>>12;
  rng_state ^= rng_state<<25;
  rng_state ^= rng_state>>27;
  return rng_state*0x2545F4914F6CDD1Dull;
}
static size_t rnd_below(size_t n){ return n ? (size_t)(rnd()%n) : 0; }

/*
** Encode the scalar value cp at out as RFC 3629 section 3's table lays
** out the bits (not with the engine's encoder); return its length.
*/
static size_t put_char(unsigned char *out, uint32_t cp){
  if( cp<0x80 ){ out[0] = (unsigned char)cp; return 1; }
  if( cp<0x800 ){
    out[0] = (unsigned char)(0xC0 | cp>>6);
    out[1] = (unsigned char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if( cp<0x10000 ){
    out[0] = (unsigned char)(0xE0 | cp>>12);
    out[1] = (unsigned char)(0x80 | (cp>>6 & 0x3F));
    out[2] = (unsigned char)(0x80 | (cp & 0x3F));
    return 3;
  }
  out[0] = (unsigned char)(0xF0 | cp>>18);
  out[1] = (unsigned char)(0x80 | (cp>>12 & 0x3F));
  out[2] = (unsigned char)(0x80 | (cp>>6 & 0x3F));
  out[3] = (unsigned char)(0x80 | (cp & 0x3F));
  return 4;
}

/*
** A random scalar value of the given byte length, now and then one at the
** edge of its range.
*/
static uint32_t rnd_scalar(int len){
  static const uint32_t edges[4][4] = {
    { 0x00, 0x7F, 0x41, 0x20 },
    { 0x80, 0x7FF, 0xE9, 0x100 },
    { 0x800, 0xFFFF, 0xD7FF, 0xE000 },
    { 0x10000, 0x10FFFF, 0xFFFFF, 0x1F600 },
  };
  uint32_t cp;
  if( rnd_below(8)==0 ) return edges[len-1][rnd_below(4)];
  switch( len ){
    case 1: return (uint32_t)rnd_below(0x80);
    case 2: return 0x80 + (uint32_t)rnd_below(0x800-0x80);
    case 3:
      do cp = 0x800 + (uint32_t)rnd_below(0x10000-0x800); while( cp>=0xD800 && cp<=0xDFFF );
      return cp;
    default: return 0x10000 + (uint32_t)rnd_below(0x110000-0x10000);
  }
}

/*
** The mixes: percent of 1-, 2-, 3- and 4-byte characters.
*/
static const int mixes[][4] = {
  { 100, 0, 0, 0 },     /* ASCII */
  { 80, 20, 0, 0 },     /* Latin */
  { 10, 0, 90, 0 },     /* CJK */
  { 10, 0, 10, 80 },    /* emoji */
  { 25, 25, 25, 25 },   /* mixed */
  { 97, 1, 1, 1 },      /* mostly ASCII */
};
#define N_MIXES (sizeof(mixes)/sizeof(mixes[0]))

/* Fill v with well-formed text of exactly n bytes in the given mix. */
static void fill_valid(unsigned char *v, size_t n, const int *mix){
  size_t i = 0;
  while( i<n ){
    int r = (int)rnd_below(100), len = 1;
    while( len<4 && r>=mix[len-1] ){ r -= mix[len-1]; len++; }
    if( i+len>n ) len = 1;
    i += put_char(v+i, rnd_scalar(len));
  }
}

/*
** Ill-formed byte patterns, grouped by the reason of their first unit
** when written after a character boundary and followed by ASCII.
*/
static const struct bad {
  int reason;
  unsigned char len;
  unsigned char b[5];
} bads[] = {
  { UTF8_UNEXPECTED_CONTINUATION, 1, {0x80} },
  { UTF8_UNEXPECTED_CONTINUATION, 1, {0xBF} },
  { UTF8_UNEXPECTED_CONTINUATION, 2, {0x9F,0xBF} },
  { UTF8_OVERLONG, 2, {0xC0,0x80} },
  { UTF8_OVERLONG, 2, {0xC1,0xBF} },
  { UTF8_OVERLONG, 3, {0xE0,0x80,0x80} },
  { UTF8_OVERLONG, 3, {0xE0,0x9F,0xBF} },
  { UTF8_OVERLONG, 4, {0xF0,0x80,0x80,0x80} },
  { UTF8_OVERLONG, 4, {0xF0,0x8F,0xBF,0xBF} },
  { UTF8_SURROGATE, 3, {0xED,0xA0,0x80} },
  { UTF8_SURROGATE, 3, {0xED,0xBF,0xBF} },
  { UTF8_TOO_LARGE, 4, {0xF4,0x90,0x80,0x80} },
  { UTF8_TOO_LARGE, 4, {0xF5,0x80,0x80,0x80} },
  { UTF8_TOO_LARGE, 1, {0xFF} },
  { UTF8_TOO_LARGE, 5, {0xF8,0x88,0x80,0x80,0x80} },
  { UTF8_MISSING_CONTINUATION, 2, {0xC2,0x41} },
  { UTF8_MISSING_CONTINUATION, 3, {0xE1,0x80,0x41} },
  { UTF8_MISSING_CONTINUATION, 4, {0xF1,0x80,0x80,0x41} },
  { UTF8_MISSING_CONTINUATION, 3, {0xE1,0xC2,0x80} },
  { UTF8_MISSING_CONTINUATION, 3, {0xF0,0x90,0xE0} },
  { UTF8_MISSING_CONTINUATION, 2, {0xF4,0x00} },
};
#define N_BADS (sizeof(bads)/sizeof(bads[0]))

/* Sequences cut short: written as the very last bytes of a value. */
static const struct cut {
  unsigned char len;
  unsigned char b[3];
} cuts[] = {
  { 1, {0xC2} }, { 1, {0xDF} }, { 1, {0xE0} }, { 1, {0xED} }, { 1, {0xEF} },
  { 1, {0xF0} }, { 1, {0xF3} }, { 1, {0xF4} },
  { 2, {0xE0,0xA0} }, { 2, {0xE1,0x80} }, { 2, {0xED,0x9F} }, { 2, {0xEF,0xBF} },
  { 2, {0xF0,0x90} }, { 2, {0xF2,0x80} }, { 2, {0xF4,0x8F} },
  { 3, {0xF0,0x90,0x80} }, { 3, {0xF3,0xBF,0xBF} }, { 3, {0xF4,0x8F,0xBF} },
};
#define N_CUTS (sizeof(cuts)/sizeof(cuts[0]))

/*
** Where to put an error in a value of n bytes (n>0), by turns: every
** offset modulo 64; the edge of a 16-, 32- or 64-byte block (-4..+4);
** anywhere.
*/
static size_t pick_offset(size_t n, long turn){
  size_t at;
  switch( turn%3 ){
    case 0:
      at = (size_t)(turn/3%64) + 64*rnd_below(n/64+1);
      break;
    case 1: {
      size_t block = (size_t)16 << rnd_below(3);
      at = block*rnd_below(n/block+1) + rnd_below(9);
      at = at>=4 ? at-4 : 0;
      break;
    }
    default:
      at = rnd_below(n);
      break;
  }
  return at<n ? at : n-1;
}

/* Overwrite v[at..] (within n) with bad pattern number which. */
static void put_bad(unsigned char *v, size_t n, size_t at, size_t which){
  size_t k;
  for(k=0; k<bads[which].len && at+k<n; k++) v[at+k] = bads[which].b[k];
}

/*
** One random value: a mix, a length, maybe errors, maybe a cut-short
** end, in one of three placements.
*/
static void random_value(unsigned char *v, long turn){
  size_t n = rnd_below(4) ? rnd_below(4097) : rnd_below(257);
  const int *mix = mixes[rnd_below(N_MIXES)];
  int placement = (int)(turn%3);
  size_t cut = 0, e, errors;
  char what[64];
  fill_valid(v, n, mix);
  errors = n && rnd_below(4) ? 1 + rnd_below(3) : 0;
  for(e=0; e<errors; e++){
    size_t at = pick_offset(n, turn+(long)e);
    if( rnd_below(8)==0 ) v[at] = (unsigned char)rnd();  /* any byte at all */
    else put_bad(v, n, at, rnd_below(N_BADS));
    if( e==0 ) cut = at;
  }
  if( n && rnd_below(5)==0 ){
    const struct cut *c = &cuts[rnd_below(N_CUTS)];
    if( c->len<=n ) memcpy(v+n-c->len, c->b, c->len);
  }
  if( placement==ACROSS_PAGE && !errors ) cut = rnd_below(n+1);
  snprintf(what, sizeof(what), "random #%ld (%s)", turn,
           placement==AT_END ? "ends at guard" :
           placement==AT_START ? "starts at guard" : "across page");
  check(what, v, n, placement, cut);
}

/*
** Errors at every offset 0..n-1 of one value per mix and length n across
** the block sizes: the most direct test of the exact-offset restart.
*/
static void every_offset(unsigned char *v){
  static const size_t lengths[] = { 15, 16, 17, 31, 32, 33, 63, 64, 65, 127, 128, 129, 200 };
  size_t m, l, at, b;
  for(m=0; m<N_MIXES; m++){
    for(l=0; l<sizeof(lengths)/sizeof(lengths[0]); l++){
      size_t n = lengths[l];
      for(at=0; at<n; at++){
        for(b=0; b<N_BADS; b+=3){
          fill_valid(v, n, mixes[m]);
          put_bad(v, n, at, b);
          check("error at every offset", v, n, (int)(at%2), 0);
        }
      }
      for(b=0; b<N_CUTS; b++){
        fill_valid(v, n, mixes[m]);
        if( cuts[b].len<=n ) memcpy(v+n-cuts[b].len, cuts[b].b, cuts[b].len);
        check("cut short at the end", v, n, AT_END, 0);
      }
    }
  }
}

int main(int argc, char **argv){
  double scale = argc<2 ? 1.0 : strcmp(argv[1], "--quick")==0 ? 0.2 : atof(argv[1]);
  long turns, t, before;
  unsigned char *v;
  int r;
  if( scale<=0 ) scale = 1.0;
  turns = (long)(100000*scale);
  guard_init();
  collect_subjects();
  v = malloc(4096+8);
  if( !v ) return 2;

  /* Each phase is one test: it passes when none of its checks failed. */
  before = n_fail; exhaustive_short(scale); end_test(before);
  before = n_fail; edge_bytes_strings(); end_test(before);
  before = n_fail; every_offset(v); end_test(before);
  before = n_fail;
  for(t=0; t<turns; t++) random_value(v, t);
  end_test(before);

  printf("# first errors by reason:");
  for(r=1; r<UTF8_REASON_COUNT; r++){
    printf("%s %s %ld", r>1 ? "," : "", utf8_reason_text((utf8_reason)r), reason_seen[r]);
  }
  printf("\n");
  for(r=1; r<UTF8_REASON_COUNT; r++){
    before = n_fail;
    if( reason_seen[r]==0 ){
      printf("FAIL: no input had a first error of reason %s\n", utf8_reason_text((utf8_reason)r));
      n_fail++;
    }
    end_test(before);
  }
  free(v);
  printf("simd: %ld single checks, %ld failed\n", n_pass+n_fail, n_fail);
  printf("simd: %d passed, %d failed\n", n_tests_pass, n_tests_fail);
  return n_fail ? 1 : 0;
}
