/*
** bench/guess_bench.c - how fast utf8_guess() (core/guess.h) names the
** charset of legacy values, next to uchardet's C API on the same values in
** the same run.
**
**     guess_bench FILE     (make guess-bench writes FILE and runs this)
**
** FILE holds the values test/guess_eval.py draws from the corpus's test
** split (guess_eval.py --dump FILE): each a 4-byte little-endian length,
** then the bytes. Every value is ill-formed UTF-8 in one of the legacy
** charsets guess_eval.py tests, 8-300 bytes.
**
** Rows: one per length bucket of guess_eval.py (8-15, 16-31, 32-63 and
** 64-300 bytes), then all the values. Columns: values/s and MB/s of
** utf8_guess(); of uchardet (one uchardet_t, and per value uchardet_reset,
** uchardet_handle_data, uchardet_data_end, uchardet_get_charset, as a
** program reusing a detector does); utf8_guess's speed as a multiple of
** uchardet's; and, for scale, utf8_count_units() on the same values (what
** utf8_length runs: the validator over every byte, each ill-formed unit
** counted).
**
** libuchardet.so.0 (Debian's libuchardet0) is opened with dlopen, so the
** build needs no -dev package; without it the uchardet columns say so.
** Timing as bench/bench.c: each of REPS rounds times one batch of each
** row in turn, interleaved, and a figure is the median of its rounds.
** Nothing is asserted: test/guess_eval.py checks the answers.
*/
#include "utf8.h"
#include "charsets.h"
#include "guess.h"

#include <dlfcn.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define REPS 11              /* interleaved rounds */
#define BATCH_NS 20000000.0  /* aim for batches of about 20 ms */
#define N_BUCKETS 4

static const size_t bucket_lo[N_BUCKETS] = { 8, 16, 32, 64 };
static const size_t bucket_hi[N_BUCKETS] = { 15, 31, 63, 300 };

/* ---- the values ----------------------------------------------------- */

typedef struct value { const unsigned char *s; size_t n; } value;

typedef struct set {
  value *v;
  size_t count, bytes;
} set;

static unsigned char *file_data;

/* Read FILE into all; fails with a message. */
static int read_values(const char *path, set *all){
  FILE *f = fopen(path, "rb");
  long size;
  size_t at = 0, cap = 0;
  if( !f ){ perror(path); return 1; }
  if( fseek(f, 0, SEEK_END) || (size = ftell(f))<0 || fseek(f, 0, SEEK_SET) ){
    perror(path); fclose(f); return 1;
  }
  file_data = malloc((size_t)size+1);
  if( !file_data || fread(file_data, 1, (size_t)size, f)!=(size_t)size ){
    fprintf(stderr, "guess_bench: cannot read %s\n", path); fclose(f); return 1;
  }
  fclose(f);
  memset(all, 0, sizeof(*all));
  while( at<(size_t)size ){
    uint32_t n;
    if( (size_t)size-at<4 ) break;
    n = (uint32_t)file_data[at] | (uint32_t)file_data[at+1]<<8
      | (uint32_t)file_data[at+2]<<16 | (uint32_t)file_data[at+3]<<24;
    at += 4;
    if( n>(size_t)size-at ) break;
    if( all->count==cap ){
      cap = cap ? 2*cap : 4096;
      all->v = realloc(all->v, cap*sizeof(value));
      if( !all->v ){ fprintf(stderr, "guess_bench: out of memory\n"); return 1; }
    }
    all->v[all->count].s = file_data+at;
    all->v[all->count].n = n;
    all->count++;
    all->bytes += n;
    at += n;
  }
  if( at!=(size_t)size ){
    fprintf(stderr, "guess_bench: %s is not a file of length-prefixed values "
            "(test/guess_eval.py --dump writes one)\n", path);
    return 1;
  }
  if( all->count==0 ){
    fprintf(stderr, "guess_bench: %s holds no values\n", path);
    return 1;
  }
  return 0;
}

/* ---- uchardet through dlopen ---------------------------------------- */

typedef void *uchardet_t;
static struct {
  uchardet_t (*new_)(void);
  void (*delete_)(uchardet_t);
  int (*handle_data)(uchardet_t, const char *, size_t);
  void (*data_end)(uchardet_t);
  void (*reset)(uchardet_t);
  const char *(*get_charset)(uchardet_t);
  uchardet_t h;
} ud;

static int load_uchardet(void){
  void *lib = dlopen("libuchardet.so.0", RTLD_NOW);
  if( !lib ) return 0;
  *(void**)&ud.new_ = dlsym(lib, "uchardet_new");
  *(void**)&ud.delete_ = dlsym(lib, "uchardet_delete");
  *(void**)&ud.handle_data = dlsym(lib, "uchardet_handle_data");
  *(void**)&ud.data_end = dlsym(lib, "uchardet_data_end");
  *(void**)&ud.reset = dlsym(lib, "uchardet_reset");
  *(void**)&ud.get_charset = dlsym(lib, "uchardet_get_charset");
  if( !ud.new_ || !ud.delete_ || !ud.handle_data || !ud.data_end || !ud.reset
   || !ud.get_charset ) return 0;
  ud.h = ud.new_();
  return ud.h!=0;
}

/* ---- the rows ------------------------------------------------------- */

typedef size_t (*row_fn)(const value *v);

static size_t guess_row(const value *v){
  return (size_t)(utf8_guess(v->s, v->n) + 2);
}

static size_t uchardet_row(const value *v){
  const char *cs;
  ud.reset(ud.h);
  ud.handle_data(ud.h, (const char*)v->s, v->n);
  ud.data_end(ud.h);
  cs = ud.get_charset(ud.h);
  return cs ? (unsigned char)cs[0] : 0;
}

static size_t units_row(const value *v){
  return utf8_count_units(v->s, v->n);
}

enum { R_GUESS, R_UCHARDET, R_UNITS, N_ROWS };
static const row_fn row_fns[N_ROWS] = { guess_row, uchardet_row, units_row };
static int have_uchardet;

/* ---- timing --------------------------------------------------------- */

static double now_ns(void){
  struct timespec t;
  clock_gettime(CLOCK_MONOTONIC, &t);
  return (double)t.tv_sec*1e9 + (double)t.tv_nsec;
}

static volatile size_t sink;  /* keeps the answers alive */

static double time_pass(row_fn fn, const set *s, long passes){
  double t0 = now_ns();
  size_t acc = 0, k;
  long p;
  for(p=0; p<passes; p++){
    for(k=0; k<s->count; k++) acc += fn(&s->v[k]);
  }
  sink = acc;
  return now_ns()-t0;
}

static int cmp_double(const void *a, const void *b){
  double x = *(const double*)a, y = *(const double*)b;
  return x<y ? -1 : x>y;
}

/* Median nanoseconds per pass over s of each row (negative: not run). */
static void measure(const set *s, double *result){
  long passes[N_ROWS];
  double samples[N_ROWS][REPS];
  int r, rep;
  for(r=0; r<N_ROWS; r++){
    double t;
    result[r] = -1;
    if( r==R_UCHARDET && !have_uchardet ) continue;
    t = time_pass(row_fns[r], s, 1);   /* warm, and calibrate */
    t = time_pass(row_fns[r], s, 1);
    passes[r] = t>=BATCH_NS ? 1 : (long)(BATCH_NS/(t>1 ? t : 1));
  }
  for(rep=0; rep<REPS; rep++){
    for(r=0; r<N_ROWS; r++){
      if( r==R_UCHARDET && !have_uchardet ) continue;
      samples[r][rep] = time_pass(row_fns[r], s, passes[r])/(double)passes[r];
    }
  }
  for(r=0; r<N_ROWS; r++){
    if( r==R_UCHARDET && !have_uchardet ) continue;
    qsort(samples[r], REPS, sizeof(double), cmp_double);
    result[r] = samples[r][REPS/2];
  }
}

/* ---- the table ------------------------------------------------------ */

static void print_row(const char *label, const set *s, const double *ns){
  double sec[N_ROWS];
  int r;
  for(r=0; r<N_ROWS; r++) sec[r] = ns[r]/1e9;
  printf("%-8s %7zu %6.1f", label, s->count, (double)s->bytes/(double)s->count);
  printf(" %11.0f %7.1f", (double)s->count/sec[R_GUESS], (double)s->bytes/sec[R_GUESS]/1e6);
  if( ns[R_UCHARDET]>0 ){
    printf(" %11.0f %7.1f %9.2fx", (double)s->count/sec[R_UCHARDET],
           (double)s->bytes/sec[R_UCHARDET]/1e6, ns[R_UCHARDET]/ns[R_GUESS]);
  }else{
    printf(" %11s %7s %10s", "-", "-", "-");
  }
  printf(" %11.0f\n", (double)s->count/sec[R_UNITS]);
}

int main(int argc, char **argv){
  set all, bucket[N_BUCKETS];
  double ns[N_BUCKETS][N_ROWS], total[N_ROWS];
  size_t k;
  size_t named = 0, as_utf8 = 0, none = 0;
  int b, r;

  if( argc!=2 ){
    fprintf(stderr, "usage: guess_bench FILE   (FILE from test/guess_eval.py --dump FILE)\n");
    return 2;
  }
  if( read_values(argv[1], &all) ) return 2;
  have_uchardet = load_uchardet();

  /* The values by bucket (a value outside every bucket counts in all only). */
  for(b=0; b<N_BUCKETS; b++){
    bucket[b].v = malloc(all.count*sizeof(value));
    bucket[b].count = bucket[b].bytes = 0;
    if( !bucket[b].v ){ fprintf(stderr, "guess_bench: out of memory\n"); return 2; }
  }
  for(k=0; k<all.count; k++){
    int g = utf8_guess(all.v[k].s, all.v[k].n);
    if( g==UTF8_GUESS_UTF8 ) as_utf8++;
    else if( g==UTF8_GUESS_NONE ) none++;
    else named++;
    for(b=0; b<N_BUCKETS; b++){
      if( all.v[k].n>=bucket_lo[b] && all.v[k].n<=bucket_hi[b] ){
        bucket[b].v[bucket[b].count++] = all.v[k];
        bucket[b].bytes += all.v[k].n;
      }
    }
  }

  printf("guess_bench: %zu values, %zu bytes, from %s; utf8_guess named a charset "
         "for %zu, utf-8 for %zu, none for %zu\n", all.count, all.bytes, argv[1],
         named, as_utf8, none);
  if( !have_uchardet ){
    printf("(libuchardet.so.0 not found: no uchardet columns; Debian's libuchardet0 has it)\n");
  }
  printf("median of %d interleaved rounds, one call per value\n\n", REPS);

  for(r=0; r<N_ROWS; r++) total[r] = 0;
  for(b=0; b<N_BUCKETS; b++){
    if( bucket[b].count==0 ) continue;
    measure(&bucket[b], ns[b]);
    for(r=0; r<N_ROWS; r++) total[r] += ns[b][r];
  }
  if( !have_uchardet ) total[R_UCHARDET] = -1;

  printf("%-8s %7s %6s %11s %7s %11s %7s %10s %11s\n", "", "", "mean",
         "utf8_guess", "", "uchardet", "", "guess /", "count_units");
  printf("%-8s %7s %6s %11s %7s %11s %7s %10s %11s\n", "bytes", "values", "bytes",
         "values/s", "MB/s", "values/s", "MB/s", "uchardet", "values/s");
  for(b=0; b<N_BUCKETS; b++){
    char label[16];
    if( bucket[b].count==0 ) continue;
    snprintf(label, sizeof(label), "%zu-%zu", bucket_lo[b], bucket_hi[b]);
    print_row(label, &bucket[b], ns[b]);
  }
  {
    /* all: the sum of the buckets' medians (every value is in one bucket
    ** when FILE comes from guess_eval.py). */
    set in_buckets = { 0, 0, 0 };
    for(b=0; b<N_BUCKETS; b++){
      in_buckets.count += bucket[b].count;
      in_buckets.bytes += bucket[b].bytes;
    }
    if( in_buckets.count ) print_row("all", &in_buckets, total);
  }
  printf("\n(guess / uchardet: utf8_guess's speed as a multiple of uchardet's on the "
         "same values)\n");

  if( have_uchardet ) ud.delete_(ud.h);
  for(b=0; b<N_BUCKETS; b++) free(bucket[b].v);
  free(all.v);
  free(file_data);
  return 0;
}
