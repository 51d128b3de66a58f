/*
** bench/bench.c - how fast the engine validates and repairs, next to a
** plain transcription of RFC 3629 (bench/naive.c), glibc's iconv and
** memchr, and Python's bytes.decode('utf-8', 'replace').
**
**     bench        print the tables (make bench runs it, then the SQL-level
**                  figures of bench/sql_bench.py)
**
** VALIDATION TABLES, one per input shape: a 1 MiB value, and arrays of
** 4096 strings of 16, 64 and 256 bytes (one call per string, so the
** per-call cost shows). Columns are corpora: ASCII, Latin (~20% 2-byte
** characters), CJK (~90% 3-byte), emoji (mostly 4-byte), mixed (1- to
** 4-byte characters alike) and mixed with its last byte bad. Rows are every
** validator compiled in and supported here (by utf8_impl_list), naive,
** iconv UTF-8 to UTF-8, and memchr for a byte the input lacks (0xFF, never
** in UTF-8): the rate at which this machine can merely read the bytes.
**
** Every row of one table is measured interleaved: each of REPS rounds
** times one batch of each row in turn, and a row's figure is the median
** of its rounds, so a slow patch of the machine hits all rows alike.
**
** REPAIR TABLE: utf8_fix (subpart rule, U+FFFD) and utf8_count_units on
** 1 MiB of each valid corpus and of mixed text with 1% and 0.1% of its
** bytes made bad, next to memcpy and next to Python timed on the same
** bytes (the corpus is written to a temporary file, python3 times the
** decode with time.perf_counter in a subprocess and prints its median).
**
** COUNTING TABLE: utf8_count_units (what utf8_length runs) next to the
** dispatched validator on 1 MiB of each corpus.
**
** THE SIMD PEER: simdutf, as Node ships it. Every table also times, on
** the same bytes (written to a temporary file that bench/node_peer.js
** reads), Node's buffer.isUtf8 (simdutf's validator) for validation and
** counting, and TextDecoder (simdutf's transcoder, replacing errors;
** it writes UTF-16, so it does more than utf8_fix) for repair, and prints
** every row as a multiple of it. Node's own per-call cost is part of its
** short-string figures: that is simdutf as a JavaScript caller gets it.
** Node does not expose simdutf's count_utf8, so counting is compared
** with its validator. Without node the peer rows say so and are skipped.
**
** Nothing is asserted: this prints figures, the tests check answers.
*/
#include "utf8.h"
#include "mojibake.h"
#include "impl.h"
#include "naive.h"

#include <iconv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#define MIB (1024*1024)
#define N_STRINGS 4096        /* strings per short-string array */
#define REPS 21               /* interleaved rounds per table */
#define BATCH_NS 1500000.0    /* aim for batches of about 1.5 ms */

/* ---- corpora -------------------------------------------------------- */

static uint64_t rng_state = 0x243F6A8885A308D3ull;

/* xorshift64*: the same corpora on every run. */
static uint64_t rnd(void){
  rng_state ^= rng_state>>12;
  rng_state ^= rng_state<<25;
  rng_state ^= rng_state>>27;
  return rng_state*0x2545F4914F6CDD1Dull;
}
static uint32_t rnd_in(uint32_t lo, uint32_t hi){ return lo + (uint32_t)(rnd()%(hi-lo+1)); }

typedef enum corpus_kind { C_ASCII, C_LATIN, C_CJK, C_EMOJI, C_MIXED, C_BAD_END, N_CORPORA } corpus_kind;
static const char *const corpus_names[N_CORPORA] = {
  "ASCII", "Latin", "CJK", "emoji", "mixed", "mixed+bad"
};

/* One character of the corpus's kind, as a scalar value. */
static uint32_t corpus_char(corpus_kind kind){
  unsigned r = (unsigned)(rnd()%100);
  uint32_t cp;
  switch( kind ){
    case C_ASCII: return r<15 ? ' ' : rnd_in('a', 'z');
    case C_LATIN: return r<20 ? rnd_in(0xC0, 0x17F) : r<32 ? ' ' : rnd_in('a', 'z');
    case C_CJK:   return r<90 ? rnd_in(0x4E00, 0x9FFF) : r<95 ? ' ' : rnd_in('0', '9');
    case C_EMOJI: return r<85 ? rnd_in(0x1F300, 0x1FAFF) : r<93 ? ' ' : rnd_in(0x2600, 0x26FF);
    default:
      switch( r%4 ){
        case 0:  return rnd_in(0x20, 0x7E);
        case 1:  return rnd_in(0x80, 0x7FF);
        case 2:  do cp = rnd_in(0x800, 0xFFFF); while( cp>=0xD800 && cp<=0xDFFF ); return cp;
        default: return rnd_in(0x10000, 0x10FFFF);
      }
  }
}

/*
** Exactly n bytes of the corpus (ASCII fills the last bytes when a
** character would not fit). C_BAD_END is mixed text whose last byte is
** C0, which can't appear in UTF-8: the answer is n-1, reason "overlong".
*/
static void corpus_fill(corpus_kind kind, unsigned char *s, size_t n){
  size_t i = 0;
  size_t end = kind==C_BAD_END && n ? n-1 : n;
  while( i<end ){
    unsigned char buf[4];
    size_t len = utf8_encode_scalar(corpus_char(kind), buf);
    if( i+len>end ){ s[i++] = 'x'; continue; }
    memcpy(s+i, buf, len);
    i += len;
  }
  if( end<n ) s[end] = 0xC0;
}

/*
** count strings of len bytes back to back at s, the same bytes on every
** run (each corpus has its own seed).
*/
static void corpus_array(corpus_kind kind, unsigned char *s, size_t len, size_t count){
  size_t k;
  rng_state = 0x243F6A8885A308D3ull + (uint64_t)kind;
  for(k=0; k<count; k++) corpus_fill(kind, s+k*len, len);
}

/* Make about one byte in per of s bad: a lone continuation, C0 or F5. */
static void corpus_dirty(unsigned char *s, size_t n, size_t per){
  static const unsigned char bad[] = { 0x80, 0xBF, 0xC0, 0xF5 };
  size_t k;
  for(k=0; k<n/per; k++) s[rnd()%n] = bad[rnd()%sizeof(bad)];
}

/* ---- the rows ------------------------------------------------------- */

typedef size_t (*row_fn)(const unsigned char *s, size_t n);

static iconv_t iconv_cd;
static unsigned char *iconv_out;

/* glibc's iconv from UTF-8 to UTF-8: it decodes and checks every byte. */
static size_t iconv_row(const unsigned char *s, size_t n){
  char *in = (char*)s, *out = (char*)iconv_out;
  size_t in_left = n, out_left = MIB+64;
  if( iconv(iconv_cd, &in, &in_left, &out, &out_left)==(size_t)-1 ){
    iconv(iconv_cd, 0, 0, 0, 0);
    return n-in_left;
  }
  return n;
}

/* memchr for a byte UTF-8 never holds: reads every byte, judges none. */
static size_t memchr_row(const unsigned char *s, size_t n){
  const unsigned char *p = memchr(s, 0xFF, n);
  return p ? (size_t)(p-s) : n;
}

typedef struct row {
  char name[24];
  row_fn fn;
} row;

static row rows[16];
static int n_rows, naive_row, memchr_row_at;

static void add_row(const char *name, row_fn fn){
  snprintf(rows[n_rows].name, sizeof(rows[n_rows].name), "%s", name);
  rows[n_rows].fn = fn;
  n_rows++;
}

/* Our implementations that run here, then the three references. */
static void collect_rows(void){
  size_t count, i;
  const utf8_impl *const *list = utf8_impl_list(&count);
  for(i=0; i<count; i++){
    if( list[i]->cpu_supports() ) add_row(list[i]->name, list[i]->find_error);
  }
  add_row("dispatch", utf8_find_error);  /* the entry point SQL calls */
  naive_row = n_rows;
  add_row("naive RFC 3629", naive_find_error);
  add_row("iconv", iconv_row);
  memchr_row_at = n_rows;
  add_row("memchr", memchr_row);
}

/* ---- timing --------------------------------------------------------- */

static double now_ns(void){
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec*1e9 + (double)t.tv_nsec;
}

static volatile size_t sink;  /* keeps the answers alive */

/*
** One pass: fn over each of the count strings of length len at s (one
** string when count is 1). Returns the nanoseconds it took.
*/
static double time_pass(row_fn fn, const unsigned char *s, size_t len,
                        size_t count, long passes){
  double t0 = now_ns();
  size_t acc = 0, k;
  long p;
  for(p=0; p<passes; p++){
    for(k=0; k<count; k++) acc += fn(s+k*len, len);
  }
  sink = acc;
  return now_ns()-t0;
}

static int cmp_double(const void *a, const void *b){
  double x = *(const double*)a, y = *(const double*)b;
  return x<y ? -1 : x>y;
}

static double median(double *v, int n){
  qsort(v, (size_t)n, sizeof(double), cmp_double);
  return v[n/2];
}

/*
** Median nanoseconds per pass of each row over one corpus, measured in
** REPS interleaved rounds; result[r] for row r.
*/
static void measure(const unsigned char *s, size_t len, size_t count, double *result){
  long passes[16];
  double samples[16][REPS];
  int r, rep;
  for(r=0; r<n_rows; r++){
    double t = time_pass(rows[r].fn, s, len, count, 1);   /* warm, and calibrate */
    t = time_pass(rows[r].fn, s, len, count, 1);
    passes[r] = t>=BATCH_NS ? 1 : (long)(BATCH_NS/(t>1 ? t : 1));
  }
  for(rep=0; rep<REPS; rep++){
    for(r=0; r<n_rows; r++){
      samples[r][rep] = time_pass(rows[r].fn, s, len, count, passes[r])/(double)passes[r];
    }
  }
  for(r=0; r<n_rows; r++) result[r] = median(samples[r], REPS);
}

/* ---- the SIMD peer: simdutf in Node ---------------------------------- */

static int have_node;  /* node runs bench/node_peer.js here */

/* Write s[0..n) to a new file named by the mkstemp template path. */
static int write_temp(char *path, const unsigned char *s, size_t n){
  int fd = mkstemp(path);
  FILE *f;
  if( fd<0 ) return 1;
  f = fdopen(fd, "wb");
  if( !f ){ close(fd); unlink(path); return 1; }
  if( fwrite(s, 1, n, f)!=n ){ fclose(f); unlink(path); return 1; }
  fclose(f);
  return 0;
}

/*
** Node's median nanoseconds per pass over count strings of len bytes at
** s, mode "valid" (buffer.isUtf8) or "repair" (TextDecoder); negative
** when node is absent or fails.
*/
static double node_ns(const char *mode, const unsigned char *s, size_t len, size_t count){
  const char *script = getenv("BENCH_NODE_PEER");
  char data[] = "/tmp/utf8ext-bench-node-XXXXXX";
  char cmd[512];
  double ns = -1;
  FILE *p;
  if( !have_node ) return -1;
  if( !script || !script[0] ) script = "bench/node_peer.js";
  if( write_temp(data, s, len*count) ) return -1;
  snprintf(cmd, sizeof(cmd), "node %s %s %s %zu %zu 2>/dev/null", script, mode, data, len, count);
  p = popen(cmd, "r");
  if( p ){
    if( fscanf(p, "%lf", &ns)!=1 ) ns = -1;
    pclose(p);
  }
  unlink(data);
  return ns;
}

static void check_node(void){
  static const unsigned char probe[] = "probe";
  have_node = 1;
  have_node = node_ns("valid", probe, 5, 1)>0;
  if( !have_node ){
    printf("(node with buffer.isUtf8 not found: no simdutf peer rows;"
           " install Node 18.14 or later to get them)\n");
  }
}

/* ---- the validation tables ------------------------------------------ */

/*
** When BENCH_TSV names a file, append the table's GB/s to it, one figure a
** line (implementation, corpus, GB/s): the input of
** bench/chart.sh, which draws the chart the README shows.
*/
static void write_tsv(const char *title, size_t len, size_t count,
                      double ns[][16], const double *peer){
  const char *path = getenv("BENCH_TSV");
  FILE *f;
  int c, r;
  if( path==0 || path[0]==0 ) return;
  f = fopen(path, "a");
  if( f==0 ) return;
  fprintf(f, "# %s\n", title);
  for(r=0; r<n_rows; r++){
    for(c=0; c<N_CORPORA; c++){
      fprintf(f, "%s\t%s\t%.2f\n", rows[r].name, corpus_names[c],
              (double)(len*count)/ns[c][r]);
    }
  }
  for(c=0; c<N_CORPORA && peer[0]>0; c++){
    fprintf(f, "simdutf (node isUtf8)\t%s\t%.2f\n", corpus_names[c],
            (double)(len*count)/peer[c]);
  }
  fclose(f);
}

/*
** One table: len-byte strings, count of them (count 1: one value). Prints
** GB/s (and ns per call for short strings), then each row's ratio to
** naive and to memchr.
*/
static void validation_table(const char *title, size_t len, size_t count,
                             unsigned char *buf){
  double ns[N_CORPORA][16], peer[N_CORPORA];
  int c, r;
  for(c=0; c<N_CORPORA; c++){
    corpus_array((corpus_kind)c, buf, len, count);
    measure(buf, len, count, ns[c]);
    peer[c] = node_ns("valid", buf, len, count);
  }

  printf("\n== %s: %s ==\n", title, count>1 ? "GB/s, ns per call" : "GB/s");
  printf("%-16s", "");
  for(c=0; c<N_CORPORA; c++) printf("%16s", corpus_names[c]);
  printf("\n");
  for(r=0; r<n_rows; r++){
    printf("%-16s", rows[r].name);
    for(c=0; c<N_CORPORA; c++){
      double gbs = (double)(len*count)/ns[c][r];
      if( count>1 ) printf("%8.2f %5.1fns", gbs, ns[c][r]/(double)count);
      else printf("%16.2f", gbs);
    }
    printf("\n");
  }
  if( peer[0]>0 ){
    printf("%-16s", "simdutf (node)");
    for(c=0; c<N_CORPORA; c++){
      double gbs = (double)(len*count)/peer[c];
      if( count>1 ) printf("%8.2f %5.1fns", gbs, peer[c]/(double)count);
      else printf("%16.2f", gbs);
    }
    printf("\n-- %s: speed as a multiple of simdutf (node buffer.isUtf8, same bytes) --\n", title);
    for(r=0; r<n_rows; r++){
      printf("%-16s", rows[r].name);
      for(c=0; c<N_CORPORA; c++) printf("%15.2fx", peer[c]/ns[c][r]);
      printf("\n");
    }
  }
  printf("-- %s: speed as a multiple of naive / as a fraction of memchr --\n", title);
  for(r=0; r<n_rows; r++){
    printf("%-16s", rows[r].name);
    for(c=0; c<N_CORPORA; c++){
      printf("%8.1fx %5.2f ", ns[c][naive_row]/ns[c][r], ns[c][memchr_row_at]/ns[c][r]);
    }
    printf("\n");
  }
  fflush(stdout);
  if( count==1 ) write_tsv(title, len, count, ns, peer);
}

/* ---- the repair table ----------------------------------------------- */

static unsigned char *fix_out;

/*
** Dirty text is timed on DIRTY_VARIANTS copies of the same text with the
** bad bytes in other places, one after the other: on one buffer timed
** over and over, the branch predictor learns where its errors are (the
** first pass after another row ran measured 2.7 GB/s at 1%, the eighth
** 4.4), which no real column would allow. 4 MiB stay in the cache.
*/
#define DIRTY_VARIANTS 4
static unsigned char *dirty_variant[DIRTY_VARIANTS];
static int dirty_on;           /* the rows below take the variants in turn */
static unsigned dirty_next;

static const unsigned char *row_input(const unsigned char *s){
  return dirty_on ? dirty_variant[dirty_next++ % DIRTY_VARIANTS] : s;
}
static size_t fix_row(const unsigned char *s, size_t n){
  return utf8_fix(row_input(s), n, (const unsigned char*)"\xEF\xBF\xBD", 3,
                  UTF8_FIX_SUBPART, fix_out);
}
static size_t count_row(const unsigned char *s, size_t n){
  return utf8_count_units(row_input(s), n);
}
static size_t memcpy_row(const unsigned char *s, size_t n){
  memcpy(fix_out, row_input(s), n);
  return n;
}

/*
** Python's median seconds for bytes.decode('utf-8','replace').encode()
** of s[0..n), or a negative number when python3 can't be run.
*/
static double python_fix_seconds(const unsigned char *s, size_t n){
  static const char *script =
    "import sys,time\n"
    "b=open(sys.argv[1],'rb').read()\n"
    "t=[]\n"
    "for i in range(int(sys.argv[2])):\n"
    "  a=time.perf_counter(); b.decode('utf-8','replace').encode(); t.append(time.perf_counter()-a)\n"
    "t.sort(); print(t[len(t)//2])\n";
  char data[] = "/tmp/utf8ext-bench-data-XXXXXX";
  char code[] = "/tmp/utf8ext-bench-code-XXXXXX";
  char cmd[256];
  double seconds = -1;
  FILE *p;
  if( write_temp(data, s, n) ) return -1;
  if( write_temp(code, (const unsigned char*)script, strlen(script))==0 ){
    snprintf(cmd, sizeof(cmd), "python3 %s %s 11 2>/dev/null", code, data);
    p = popen(cmd, "r");
    if( p ){
      if( fscanf(p, "%lf", &seconds)!=1 ) seconds = -1;
      pclose(p);
    }
    unlink(code);
  }
  unlink(data);
  return seconds;
}

static void repair_table(unsigned char *buf){
  static const corpus_kind kinds[] = { C_ASCII, C_LATIN, C_CJK, C_EMOJI, C_MIXED, C_MIXED, C_MIXED };
  static const char *const names[] = { "ASCII", "Latin", "CJK", "emoji", "mixed",
                                       "mixed 1% bad", "mixed .1% bad" };
  static const size_t dirty_per[] = { 0, 0, 0, 0, 0, 100, 1000 };  /* one bad byte in */
  enum { N = sizeof(kinds)/sizeof(kinds[0]) };
  double ns[N][16], py[N], peer[N];
  row saved[16];
  int saved_n = n_rows, c, r;

  memcpy(saved, rows, sizeof(rows));
  n_rows = 0;
  add_row("utf8_fix", fix_row);
  add_row("utf8_count_units", count_row);
  add_row("memcpy", memcpy_row);
  for(c=0; c<N; c++){
    int v;
    corpus_array(kinds[c], buf, MIB, 1);
    dirty_on = 0;
    for(v=0; v<DIRTY_VARIANTS && dirty_per[c]; v++){
      if( !dirty_variant[v] && !(dirty_variant[v] = malloc(MIB+64)) ) exit(2);
      memcpy(dirty_variant[v], buf, MIB);
      corpus_dirty(dirty_variant[v], MIB, dirty_per[c]);
      dirty_on = 1;
    }
    if( dirty_on ) memcpy(buf, dirty_variant[0], MIB);   /* what Python and Node get */
    measure(buf, MIB, 1, ns[c]);
    dirty_on = 0;
    py[c] = python_fix_seconds(buf, MIB);
    peer[c] = node_ns("repair", buf, MIB, 1);
  }

  printf("\n== repair, 1 MiB: GB/s (utf8_fix: subpart rule, U+FFFD) ==\n");
  printf("%-28s", "");
  for(c=0; c<N; c++) printf("%13s", names[c]);
  printf("\n");
  for(r=0; r<n_rows; r++){
    printf("%-28s", rows[r].name);
    for(c=0; c<N; c++) printf("%13.2f", (double)MIB/ns[c][r]);
    printf("\n");
  }
  printf("%-28s", "python decode(replace).encode");
  for(c=0; c<N; c++){
    if( py[c]>0 ) printf("%13.3f", (double)MIB/(py[c]*1e9)); else printf("%13s", "n/a");
  }
  printf("\n%-28s", "utf8_fix / python");
  for(c=0; c<N; c++){
    if( py[c]>0 ) printf("%12.1fx", py[c]*1e9/ns[c][0]); else printf("%13s", "n/a");
  }
  printf("\n");
  if( peer[0]>0 ){
    printf("%-28s", "simdutf (node TextDecoder)");
    for(c=0; c<N; c++) printf("%13.2f", (double)MIB/peer[c]);
    printf("\n%-28s", "utf8_fix / TextDecoder");
    for(c=0; c<N; c++) printf("%12.2fx", peer[c]/ns[c][0]);
    printf("\n");
  }
  memcpy(rows, saved, sizeof(rows));
  n_rows = saved_n;
}

/* ---- the counting table ---------------------------------------------- */

/*
** utf8_count_units (utf8_length's count) and the dispatched validator on
** 1 MiB of each corpus, and node's isUtf8 on the same bytes: counting
** should run at validation speed.
*/
static void counting_table(unsigned char *buf){
  double ns[N_CORPORA][16], peer[N_CORPORA];
  row saved[16];
  int saved_n = n_rows, c, r;
  memcpy(saved, rows, sizeof(rows));
  n_rows = 0;
  add_row("utf8_count_units", count_row);
  add_row("utf8_find_error", utf8_find_error);
  for(c=0; c<N_CORPORA; c++){
    corpus_array((corpus_kind)c, buf, MIB, 1);
    measure(buf, MIB, 1, ns[c]);
    peer[c] = node_ns("valid", buf, MIB, 1);
  }
  printf("\n== counting, 1 MiB: GB/s (utf8_count_units is what utf8_length runs) ==\n");
  printf("%-20s", "");
  for(c=0; c<N_CORPORA; c++) printf("%12s", corpus_names[c]);
  printf("\n");
  for(r=0; r<n_rows; r++){
    printf("%-20s", rows[r].name);
    for(c=0; c<N_CORPORA; c++) printf("%12.2f", (double)MIB/ns[c][r]);
    printf("\n");
  }
  if( peer[0]>0 ){
    printf("%-20s", "simdutf (node isUtf8)");
    for(c=0; c<N_CORPORA; c++) printf("%12.2f", (double)MIB/peer[c]);
    printf("\n-- as a multiple of simdutf's validator (node does not expose count_utf8) --\n");
    for(r=0; r<n_rows; r++){
      printf("%-20s", rows[r].name);
      for(c=0; c<N_CORPORA; c++) printf("%11.2fx", peer[c]/ns[c][r]);
      printf("\n");
    }
  }
  fflush(stdout);
  memcpy(rows, saved, sizeof(rows));
  n_rows = saved_n;
}

/* ---- the mojibake table ---------------------------------------------- */

/*
** utf8_unmojibake's core (what utf8_mojibake and utf8_unmojibake run) and
** its fast filter next to the validator, on 1 MiB of clean text (ASCII;
** French and German prose; Russian prose; sentences in five languages;
** the random Latin and mixed corpora, whose random neighbours do look like
** mojibake now and then) and of mojibake: the Latin corpus whose UTF-8 was
** read as cp1252 and encoded again, and the French and German prose read
** as MacRoman. The last line is utf8_unmojibake's speed as a share of the
** validator's on the same bytes (rows are timed interleaved).
*/
static const uint16_t bench_cp1252[32] = {
  0x20AC,0x81,0x201A,0x192,0x201E,0x2026,0x2020,0x2021,0x2C6,0x2030,0x160,
  0x2039,0x152,0x8D,0x17D,0x8F,0x90,0x2018,0x2019,0x201C,0x201D,0x2022,0x2013,
  0x2014,0x2DC,0x2122,0x161,0x203A,0x153,0x9D,0x17E,0x178 };

static unsigned char *moji_out;
static size_t unmojibake_row(const unsigned char *s, size_t n){
  utf8_moji_charset chain[UTF8_MOJI_MAX_DEPTH];
  size_t len = 0;
  return (size_t)utf8_unmojibake(s, n, moji_out, &len, chain) + len;
}

/* Exactly n bytes at s: src (the UTF-8 of Latin text) misread as cp1252,
** or (mac) as MacRoman. */
static void misread_fill(const unsigned char *src, unsigned char *s, size_t n, int mac){
  size_t i = 0, k = 0;
  while( i<n ){
    unsigned char e[4];
    unsigned b = src[k++];
    uint32_t c = mac ? utf8_moji_decode_byte(UTF8_MOJI_MACROMAN, b)
               : b>=0x80 && b<0xA0 ? bench_cp1252[b-0x80] : b;
    size_t len = utf8_encode_scalar(c, e);
    if( i+len>n ){ s[i++] = 'x'; continue; }
    memcpy(s+i, e, len);
    i += len;
  }
}

/* Exactly n bytes of text z, over and over. */
static void repeat_fill(unsigned char *s, size_t n, const char *z){
  size_t i = 0, len = strlen(z);
  while( i+len<=n ){ memcpy(s+i, z, len); i += len; }
  while( i<n ) s[i++] = ' ';
}

/* French and German prose as people write it (accents, quotes, dashes). */
static const char prose_fr_de[] =
  "L'\xC3\xA9t\xC3\xA9 dernier, nous sommes all\xC3\xA9s \xC3\xA0 la mer\xC2\xA0: "
  "\xC2\xAB c'\xC3\xA9tait g\xC3\xA9nial \xC2\xBB, dit Ren\xC3\xA9" "e \xE2\x80\x94 "
  "m\xC3\xAAme si l'h\xC3\xB4tel \xC3\xA9tait cher. Die Stra\xC3\x9F""e war "
  "voller Menschen; \xE2\x80\x9E""sch\xC3\xB6n\xE2\x80\x9C, sagte J\xC3\xBCrgen, "
  "\xC3\xBC" "berm\xC3\xA4\xC3\x9F" "ig gro\xC3\x9F" " und gr\xC3\xBC" "n. ";
/* Russian prose. */
static const char prose_ru[] =
  "\xD0\x92 \xD1\x8D\xD1\x82\xD0\xBE\xD0\xBC \xD0\xB3\xD0\xBE\xD0\xB4\xD1\x83 "
  "\xD0\xBB\xD0\xB5\xD1\x82\xD0\xBE \xD0\xB1\xD1\x8B\xD0\xBB\xD0\xBE "
  "\xD0\xB6\xD0\xB0\xD1\x80\xD0\xBA\xD0\xB8\xD0\xBC, \xD0\xB8 \xD0\xBC\xD1\x8B "
  "\xD1\x87\xD0\xB0\xD1\x81\xD1\x82\xD0\xBE \xD1\x85\xD0\xBE\xD0\xB4\xD0\xB8\xD0\xBB\xD0\xB8 "
  "\xD0\xBA \xD1\x80\xD0\xB5\xD0\xBA\xD0\xB5 \xE2\x80\x94 "
  "\xD1\x82\xD0\xB0\xD0\xBC \xD0\xB1\xD1\x8B\xD0\xBB\xD0\xBE "
  "\xD0\xBF\xD1\x80\xD0\xBE\xD1\x85\xD0\xBB\xD0\xB0\xD0\xB4\xD0\xBD\xD0\xBE. ";

/* Exactly n bytes of real sentences (French, German, Czech, Russian,
** Greek), over and over: clean text as people write it. */
static void prose_fill(unsigned char *s, size_t n){
  static const char prose[] =
    "L'\xC3\xA9t\xC3\xA9 dernier, nous sommes all\xC3\xA9s \xC3\xA0 No\xC3\xABl, "
    "c'\xC3\xA9tait g\xC3\xA9nial. Gr\xC3\xB6\xC3\x9F""e: 10 m\xC2\xB2 f\xC3\xBCr 5 \xE2\x82\xAC. "
    "P\xC5\x99\xC3\xAD""li\xC5\xA1 \xC5\xBElu\xC5\xA5ou\xC4\x8Dk\xC3\xBD k\xC5\xAF\xC5\x88. "
    "\xD0\x9F\xD1\x80\xD0\xB8\xD0\xB2\xD0\xB5\xD1\x82, \xD0\xBC\xD0\xB8\xD1\x80! "
    "\xCE\x9A\xCE\xB1\xCE\xBB\xCE\xB7\xCE\xBC\xCE\xAD\xCF\x81\xCE\xB1. ";
  size_t i = 0, len = sizeof(prose)-1;
  while( i+len<=n ){ memcpy(s+i, prose, len); i += len; }
  while( i<n ) s[i++] = ' ';
}

/* The fast filter alone, as utf8_unmojibake starts with it (it stops at
** the first block that may hold mojibake: on mojibake and random text its
** figure only says that it answered at once). */
static size_t possible_row(const unsigned char *s, size_t n){
  return (size_t)utf8_moji_possible(s, n);
}

static void mojibake_table(unsigned char *buf){
  enum { NC = 8 };
  static const char *const names[NC] = { "ASCII", "fr/de", "Russian", "5 langs",
                                         "Latin", "mixed", "moji", "moji mac" };
  double ns[NC][16];
  row saved[16];
  int saved_n = n_rows, c, r;
  unsigned char *src = malloc(MIB+64);
  moji_out = malloc(MIB+64);
  if( !src || !moji_out ){ free(src); free(moji_out); return; }
  memcpy(saved, rows, sizeof(rows));
  n_rows = 0;
  add_row("utf8_unmojibake", unmojibake_row);
  add_row("utf8_moji_possible", possible_row);
  add_row("utf8_find_error", utf8_find_error);
  for(c=0; c<NC; c++){
    switch( c ){
      case 0: corpus_array(C_ASCII, buf, MIB, 1); break;
      case 1: repeat_fill(buf, MIB, prose_fr_de); break;
      case 2: repeat_fill(buf, MIB, prose_ru); break;
      case 3: prose_fill(buf, MIB); break;
      case 4: corpus_array(C_LATIN, buf, MIB, 1); break;
      case 5: corpus_array(C_MIXED, buf, MIB, 1); break;
      case 6:
        corpus_array(C_LATIN, src, MIB, 1);
        misread_fill(src, buf, MIB, 0);
        break;
      default:
        repeat_fill(src, MIB, prose_fr_de);
        misread_fill(src, buf, MIB, 1);
        break;
    }
    measure(buf, MIB, 1, ns[c]);
  }
  printf("\n== mojibake, 1 MiB: GB/s (utf8_unmojibake is what utf8_mojibake and "
         "utf8_unmojibake run; its\n   fast filter alone; the validator), then "
         "utf8_unmojibake as a share of the validator's speed ==\n");
  printf("%-20s", "");
  for(c=0; c<NC; c++) printf("%10s", names[c]);
  printf("\n");
  for(r=0; r<n_rows; r++){
    printf("%-20s", rows[r].name);
    for(c=0; c<NC; c++) printf("%10.3f", (double)MIB/ns[c][r]);
    printf("\n");
  }
  printf("%-20s", "unmojibake/valid");
  for(c=0; c<NC; c++) printf("%9.0f%%", 100.0*ns[c][2]/ns[c][0]);
  printf("\n");
  fflush(stdout);
  memcpy(rows, saved, sizeof(rows));
  n_rows = saved_n;
  free(src);
  free(moji_out);
}

int main(void){
  unsigned char *buf = malloc(MIB+64);
  iconv_out = malloc(MIB+64);
  fix_out = malloc(3*MIB+64);
  if( !buf || !iconv_out || !fix_out ) return 2;

  iconv_cd = iconv_open("UTF-8", "UTF-8");
  if( iconv_cd==(iconv_t)-1 ){ perror("iconv_open"); return 2; }
  collect_rows();
  check_node();
  printf("utf8ext bench: dispatch chose %s; median of %d interleaved rounds\n",
         utf8_impl_name(), REPS);

  /* BENCH_ONLY=mojibake or BENCH_ONLY=repair: that table alone (a quick look). */
  if( getenv("BENCH_ONLY") && (strcmp(getenv("BENCH_ONLY"), "mojibake")==0
                            || strcmp(getenv("BENCH_ONLY"), "repair")==0) ){
    if( strcmp(getenv("BENCH_ONLY"), "repair")==0 ) repair_table(buf);
    else mojibake_table(buf);
    iconv_close(iconv_cd);
    free(buf); free(iconv_out); free(fix_out);
    return 0;
  }
  validation_table("1 MiB value", MIB, 1, buf);
  validation_table("4096 strings of 16 bytes", 16, N_STRINGS, buf);
  validation_table("4096 strings of 64 bytes", 64, N_STRINGS, buf);
  validation_table("4096 strings of 256 bytes", 256, N_STRINGS, buf);
  counting_table(buf);
  repair_table(buf);
  mojibake_table(buf);

  iconv_close(iconv_cd);
  free(buf);
  free(iconv_out);
  free(fix_out);
  return 0;
}
