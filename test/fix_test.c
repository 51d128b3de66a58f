/*
** test/fix_test.c - every repair kernel (each SIMD implementation's
** utf8_fix_<name>, core/simd_kl.h kl_fix) and the dispatched utf8_fix,
** against the plain reference (test/reference.c, ref_fix).
**
**     fix_test [--quick | SCALE]
**
** The kernels take shortcuts the scalar loop does not: they store whole
** vectors past the end of a stretch (to be written over), read errors in
** windows of masks, and go on after a window as if in the middle of a
** value. So the inputs are long enough for all of that (130 bytes and
** more), errors sit where windows and vectors begin and end, and each
** output goes into a buffer of exactly the measured length that ends at a
** PROT_NONE page, as each input does: a byte written or read past either
** crashes the test.
**
**   1. Triples: three bytes from a set of 24 (every boundary of Table 3-7)
**      written over well-formed text at offsets around 0, 16, 32, 64 and
**      128, in ASCII, Latin, CJK and 4-byte text: every triple at every
**      such offset, with the default replacement (the window path).
**   2. Random values of 130-1200 bytes with 1-40 errors, single or in
**      clusters, all three rules, replacements of 0, 1, 2, 3, 4 and 6
**      bytes, measured and written.
**   3. Long values (300-12000 bytes) of clean stretches and bursts of
**      errors of every density, default replacement: the VBMI2 kernel's
**      loop through dirty text, and its way in and out of it.
**   4. Every pair of bytes, then two more of three kinds, in dirty text.
**   5. Every string of 3 bytes inside the VBMI2 kernel's loop.
**
** The last line is "fix: N passed, N failed"; exit status 1 on a failure.
*/
#include "utf8.h"
#include "impl.h"
#include "reference.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

typedef size_t (*fix_fn)(const unsigned char *s, size_t n, const unsigned char *r,
                         size_t rlen, int rule, unsigned char *out);

typedef struct subject {
  const char *name;
  utf8_fix_fn kernel;   /* NULL: the dispatched utf8_fix */
} subject;

static subject subjects[16];
static int n_subjects;
static long n_checks, n_fail;
static int n_tests_pass, n_tests_fail;

static void collect_subjects(void){
  size_t count, i;
  const utf8_impl *const *list = utf8_impl_list(&count);
  for(i=0; i<count && n_subjects<15; i++){
    if( !list[i]->fix ) continue;
    if( !list[i]->cpu_supports() ){
      printf("# %s: not supported by this CPU, skipped\n", list[i]->name);
      continue;
    }
    subjects[n_subjects].name = list[i]->name;
    subjects[n_subjects].kernel = list[i]->fix;
    n_subjects++;
  }
#if defined(UTF8EXT_HAVE_X86)
  /* "avx512" runs one of two kernels (VBMI2 or not): check the other too */
  if( utf8_cpu_has_avx512() ){
    subjects[n_subjects].name = "avx512-window";
    subjects[n_subjects].kernel = utf8_fix_avx512_window;
    n_subjects++;
  }
  if( utf8_cpu_has_avx512_vbmi2() ){
    subjects[n_subjects].name = "avx512-vbmi2";
    subjects[n_subjects].kernel = utf8_fix_avx512_vbmi2;
    n_subjects++;
  }else{
    printf("# avx512-vbmi2: not supported by this CPU, skipped\n");
  }
#endif
  subjects[n_subjects].name = "dispatch";
  subjects[n_subjects].kernel = 0;
  n_subjects++;
  printf("# testing:");
  for(i=0; i<(size_t)n_subjects; i++) printf(" %s", subjects[i].name);
  printf(" (dispatch chose %s)\n", utf8_impl_name());
}

/* A kernel as utf8_fix would call it, or utf8_fix itself. */
static size_t run(const subject *sub, const unsigned char *s, size_t n,
                  const unsigned char *r, size_t rlen, int rule, unsigned char *out){
  if( sub->kernel ){
    /* the kernels serve replacements of 3+ bytes, rules subpart and byte */
    if( rlen<3 || rule==UTF8_FIX_RUN ) return utf8_fix(s, n, r, rlen, (utf8_fix_rule)rule, out);
    return sub->kernel(s, n, r, rlen, rule==UTF8_FIX_BYTE, out);
  }
  return utf8_fix(s, n, r, rlen, (utf8_fix_rule)rule, out);
}

/* ---- guarded memory -------------------------------------------------- */

/* [data pages][guard]: what is copied to the end touches the guard. */
typedef struct guarded { unsigned char *hi; size_t size; } guarded;

static guarded guarded_new(size_t size){
  size_t page = (size_t)sysconf(_SC_PAGESIZE);
  size_t data = (size + page - 1)/page*page;
  unsigned char *m = mmap(0, data+page, PROT_READ|PROT_WRITE,
                          MAP_PRIVATE|MAP_ANONYMOUS, -1, 0);
  guarded g;
  if( m==MAP_FAILED ){ perror("mmap"); exit(2); }
  if( mprotect(m+data, page, PROT_NONE) ){ perror("mprotect"); exit(2); }
  g.hi = m+data;
  g.size = data;
  return g;
}

static guarded in_mem, out_mem;
static unsigned char *want;

static void print_hex(const char *label, const unsigned char *s, size_t n){
  size_t i;
  printf("  %s (%zu):", label, n);
  for(i=0; i<n; i++) printf(" %02X", s[i]);
  printf("\n");
}

/*
** One value, every subject: measured length, then the written bytes in a
** buffer of exactly that length, against the reference.
*/
static void check(const char *what, const unsigned char *v, size_t n,
                  const unsigned char *r, size_t rlen, int rule){
  unsigned char *s = in_mem.hi - n;
  size_t wl, got, len;
  int j;
  memcpy(s, v, n);
  wl = ref_fix(s, n, r, rlen, rule, want);
  for(j=0; j<n_subjects; j++){
    unsigned char *out = out_mem.hi - wl;
    n_checks++;
    len = run(&subjects[j], s, n, r, rlen, rule, 0);
    if( len!=wl ){
      n_fail++;
      if( n_fail<=5 ){
        printf("FAIL %s: %s measured %zu, reference %zu (rule %d, %zu-byte replacement)\n",
               what, subjects[j].name, len, wl, rule, rlen);
        print_hex("input", s, n);
      }
      continue;
    }
    got = run(&subjects[j], s, n, r, rlen, rule, out);
    if( got!=wl || memcmp(out, want, wl)!=0 ){
      n_fail++;
      if( n_fail<=5 ){
        printf("FAIL %s: %s wrote other bytes (rule %d, %zu-byte replacement)\n",
               what, subjects[j].name, rule, rlen);
        print_hex("input", s, n);
        print_hex("expected", want, wl);
        print_hex("actual", out, got);
      }
    }
  }
}

static void end_test(const char *name, long fail_before){
  if( n_fail==fail_before ){ n_tests_pass++; printf("ok: %s\n", name); }
  else { n_tests_fail++; printf("FAILED: %s\n", name); }
}

/* ---- inputs ----------------------------------------------------------- */

static uint64_t rng_state = 0x9E3779B97F4A7C15ull;
static uint64_t rng(void){
  rng_state ^= rng_state<<13; rng_state ^= rng_state>>7; rng_state ^= rng_state<<17;
  return rng_state;
}

/* One well-formed character of the kind (0 ASCII, 1 Latin, 2 CJK, 3 4-byte, 4 any). */
static size_t one_char(int kind, unsigned char *out){
  uint32_t cp;
  if( kind==4 ) kind = (int)(rng()%4);
  switch( kind ){
    case 0:  cp = 0x20 + (uint32_t)(rng()%0x5F); break;
    case 1:  cp = rng()%3 ? 0x61 + (uint32_t)(rng()%26) : 0xC0 + (uint32_t)(rng()%0x1C0); break;
    case 2:  cp = 0x4E00 + (uint32_t)(rng()%0x5200); break;
    default: cp = 0x10000 + (uint32_t)(rng()%0x100000); break;
  }
  return ref_encode(cp, out);
}

/* n bytes of well-formed text of the kind (ASCII fills what a character can't). */
static void fill_text(int kind, unsigned char *s, size_t n){
  size_t i = 0;
  while( i<n ){
    unsigned char c[4];
    size_t len = one_char(kind, c);
    if( i+len>n ){ s[i++] = 'x'; continue; }
    memcpy(s+i, c, len);
    i += len;
  }
}

static const unsigned char fffd[] = { 0xEF, 0xBF, 0xBD };

/* Bytes where the rows of Table 3-7 begin and end, and ASCII. */
static const unsigned char edges[] = {
  0x00, 0x41, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC1, 0xC2,
  0xDF, 0xE0, 0xE1, 0xEC, 0xED, 0xEE, 0xEF, 0xF0, 0xF1, 0xF4, 0xF5, 0xFF,
};

static void triples(double scale){
  static const size_t offsets[] = {
    0, 1, 2, 3, 13, 14, 15, 16, 17, 29, 30, 31, 32, 33, 58, 59, 60, 61, 62,
    63, 64, 65, 66, 67, 124, 125, 126, 127, 128, 129, 130, 131,
  };
  enum { N_OFF = sizeof(offsets)/sizeof(offsets[0]), N_E = sizeof(edges) };
  unsigned char v[320];
  int kind;
  size_t k, a, b, c, stride = scale<1 ? 3 : 1;
  for(kind=0; kind<4; kind++){
    unsigned char base[320];
    fill_text(kind, base, sizeof base);
    for(k=0; k<N_OFF; k++){
      for(a=0; a<N_E; a++) for(b=0; b<N_E; b+=stride) for(c=0; c<N_E; c++){
        memcpy(v, base, sizeof v);
        v[offsets[k]] = edges[a];
        v[offsets[k]+1] = edges[b];
        v[offsets[k]+2] = edges[c];
        check("triple", v, sizeof v, fffd, 3, UTF8_FIX_SUBPART);
        if( n_fail>5 ) return;
      }
    }
  }
}

static void random_values(long count){
  static const unsigned char reps[][7] = {
    {0}, {1,'?'}, {2,0xC3,0xA9}, {3,0xEF,0xBF,0xBD}, {4,0xF0,0x9F,0x98,0x80},
    {6,'a','b','c',0xC3,0xA9,'d'},
  };
  static unsigned char v[1200];
  long t;
  for(t=0; t<count && n_fail<=5; t++){
    size_t n = 130 + (size_t)(rng()%1071), nb = 1 + (size_t)(rng()%40), j;
    const unsigned char *r = reps[t%4==0 ? rng()%6 : 3];
    int rule = t%4==0 ? (int)(rng()%3) : t%8==1 ? UTF8_FIX_BYTE : UTF8_FIX_SUBPART;
    fill_text(4, v, n);
    if( t%3==0 ) nb = 1 + (size_t)(rng()%4);               /* sparse */
    for(j=0; j<nb; j++){
      size_t at = rng()%2 ? (size_t)(rng()%n) : (size_t)(rng()%8)*16 + rng()%5 - 2;
      size_t run = rng()%4==0 ? 1 + (size_t)(rng()%6) : 1, q;
      if( at>=n ) at = n-1;
      if( rng()%10==0 ) at = n - 1 - (size_t)(rng()%4);    /* the very end */
      for(q=0; q<run && at+q<n; q++) v[at+q] = edges[rng()%sizeof edges];
    }
    check("random", v, n, r+1, r[0], rule);
  }
}

/*
** Long values of clean stretches and dirty bursts: the AVX-512 VBMI2
** kernel stays in its windows through a burst and hands back to the
** validator after a clean stretch, so the bursts are of every density
** and the stretches both shorter and longer than what it waits for.
*/
static void bursts(long count){
  static unsigned char v[12000];
  long t;
  for(t=0; t<count && n_fail<=5; t++){
    size_t n = 300 + (size_t)(rng()%(sizeof v - 300)), i = 0;
    int rule = t%5==0 ? UTF8_FIX_BYTE : UTF8_FIX_SUBPART;
    fill_text(4, v, n);
    while( i<n ){
      size_t clean = rng()%3 ? (size_t)(rng()%200) : (size_t)(rng()%1500);
      size_t burst = 20 + (size_t)(rng()%700), gap = 1 + (size_t)(rng()%120), end;
      i += clean;
      for(end=i+burst; i<end && i<n; i += 1 + (size_t)(rng()%gap)){
        size_t run = rng()%4==0 ? 1 + (size_t)(rng()%4) : 1, q;
        for(q=0; q<run && i+q<n; q++) v[i+q] = edges[rng()%sizeof edges];
      }
    }
    check("burst", v, n, fffd, 3, rule);
  }
}

/*
** Every pair of bytes, then a continuation byte, a continuation byte or
** ASCII, at each place of a window, inside text made dirty every few
** bytes: the VBMI2 kernel reads the pair through its per-lead tables
** there (a wrong entry for any one lead byte fails here). Whole at any
** scale: 196,608 values of 400 bytes.
*/
static void pairs_in_dirt(void){
  static const unsigned char thirds[][2] = { {0x80, 0x80}, {0xBF, 0x41}, {0x41, 0x41} };
  unsigned char base[400], v[400];
  size_t a, b, k, i, at;
  fill_text(4, base, sizeof base);
  for(i=5; i<sizeof base; i += 17 + (size_t)(rng()%9)) base[i] = edges[rng()%sizeof edges];
  for(a=0; a<256; a++) for(b=0; b<256; b++) for(k=0; k<3; k++){
    at = 180 + (a*7 + b*3 + k)%64;          /* every place in a window */
    memcpy(v, base, sizeof v);
    v[at+k] = (unsigned char)a;
    v[at+k+1] = (unsigned char)b;
    v[at+k+2] = thirds[k][0];
    v[at+k+3] = thirds[k][1];
    check("pair", v, sizeof v, fffd, 3, UTF8_FIX_SUBPART);
    if( n_fail>5 ) return;
  }
}

/*
** Every string of 3 bytes (16.8 million) inside the VBMI2 kernel's loop,
** at every place of its windows: the value starts dirty, so the loop
** takes it from byte 10 to about byte 186 (core/simd_avx512.c), and the
** 3 bytes sit between 40 and 103 with text after them. Compared with the
** AVX-512 kernel without VBMI2 (itself checked against the reference
** above) byte for byte, and every 4,096th with the reference too.
*/
static void triples_in_loop(double scale){
#if defined(UTF8EXT_HAVE_X86)
  uint32_t step = scale<1 ? 5 : 1;        /* --quick (the sanitizer run): a fifth */
  enum { N = 330 };
  unsigned char base[N], *s = in_mem.hi - N;
  unsigned char *a_out = malloc(3*N), *b_out = malloc(3*N);
  uint32_t x;
  if( !a_out || !b_out ){ perror("malloc"); exit(2); }
  if( !utf8_cpu_has_avx512_vbmi2() ){
    printf("# every 3-byte string in the VBMI2 loop: no VBMI2 here, skipped\n");
    free(a_out); free(b_out);
    return;
  }
  fill_text(4, base, N);
  base[10] = 0x80;
  base[30] = 0xC0;
  for(x=0; x<(1u<<24) && n_fail<=5; x+=step){
    size_t at = 40 + x%64, la, lb;
    memcpy(s, base, N);
    s[at] = (unsigned char)(x>>16);
    s[at+1] = (unsigned char)(x>>8);
    s[at+2] = (unsigned char)x;
    n_checks++;
    la = utf8_fix_avx512_vbmi2(s, N, fffd, 3, 0, a_out);
    lb = utf8_fix_avx512_window(s, N, fffd, 3, 0, b_out);
    if( la!=lb || memcmp(a_out, b_out, la)!=0 ){
      n_fail++;
      printf("FAIL 3 bytes %06X at %zu: avx512-vbmi2 and avx512-window differ\n", (unsigned)x, at);
      continue;
    }
    if( x%4096<step ) check("3 bytes in the loop", s, N, fffd, 3, UTF8_FIX_SUBPART);
  }
  free(a_out);
  free(b_out);
#else
  (void)scale;
#endif
}

int main(int argc, char **argv){
  double scale = argc<2 ? 1.0 : strcmp(argv[1], "--quick")==0 ? 0.2 : atof(argv[1]);
  long before;
  if( scale<=0 ) scale = 1.0;
  collect_subjects();
  in_mem = guarded_new(4*4096);
  out_mem = guarded_new(10*4096);
  want = malloc(10*4096);
  if( !want ) return 2;

  before = n_fail; triples(scale); end_test("triples at window and vector edges", before);
  before = n_fail; random_values((long)(200000*scale)); end_test("random values", before);
  before = n_fail; bursts((long)(20000*scale)); end_test("dirty bursts in long values", before);
  before = n_fail; pairs_in_dirt(); end_test("every byte pair in dirty text", before);
  before = n_fail; triples_in_loop(scale); end_test("every 3-byte string in the VBMI2 loop", before);

  printf("fix: %ld single checks, %ld failed\n", n_checks, n_fail);
  printf("fix: %d passed, %d failed\n", n_tests_pass, n_tests_fail);
  free(want);
  return n_fail ? 1 : 0;
}
