/*
** test/guess_test.c - every figure the charset guess (core/guess.h) gives,
** on 40,000 values made from a fixed seed, folded into one checksum that
** must match GUESS_GOLDEN: the scores, the fingerprints of the readings
** that are not ruled out, utf8_guess(), utf8_guess_pick(),
** utf8_guess_plausible() for every charset (and utf8_guess_plausible_set()
** must agree with it), and the group's pick and rank over each eight
** values (and its choice for each value must be a reading priced exactly,
** and a confident pick that wins by more than any prior). A change meant to make the guess faster must
** leave the checksum alone; one that changes the guess on purpose (a new
** model, a new rule) prints the new figure with --print, and the commit
** that puts it in GUESS_GOLDEN says why.
**
** The values: random bytes; ASCII text with bytes >= 0x80 among its
** letters, as legacy text has them; UTF-8 lead and continuation bytes
** shuffled (damaged UTF-8, cut characters); and a few long ones (past the
** 64 KiB window, past 128 runs, a word of 2,000 letters), which take the
** guess's slow paths.
**
** The fingerprint of a ruled-out reading is left out: no decision reads it
** (utf8_guess_pick and the group skip ruled-out readings), and a faster
** walk may stop reading one at another place.
*/
#include "guess.h"
#include "utf8.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What test/guess_test.c printed before the speed work of issue 36
** (0x2484a65a21f39792), then once damage in a value with no well-formed
** multi-byte character cost 48 bits (core/guess.c, DAMAGE_ALONE_COST:
** 0xebe0696f4cdf5703), then once a letter's case was priced after the
** cases of the two characters before, not one (core/model.h): 0xab71cdcbf48e64ff,
** then once an overlong form but C0 80 cost as much as damage, not as a
** variant of UTF-8 (OVERLONG_COST in core/guess.c): 0x27adc70d43d90835,
** then once the ordinals ª and º were Latin letters to the model
** (tools/gen-model.py, LATIN_UNNAMED). */
#define GUESS_GOLDEN 0x20ecb37d9444ca90ull

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(void){
  rng ^= rng<<13; rng ^= rng>>7; rng ^= rng<<17;
  return (uint32_t)(rng>>11);
}

static uint64_t sum = 0xCBF29CE484222325ull;
static void fold(uint64_t x){ sum = (sum ^ x) * 0x100000001B3ull; }

static utf8_guess_group group;
static long nValue, nNamed, nNone, nSetWrong, nChooseWrong;

/* Fold in every figure of s[0..n). */
static void check(const unsigned char *s, size_t n){
  int32_t score[UTF8_GUESS_N];
  uint64_t hash[UTF8_GUESS_N];
  uint8_t order[UTF8_GUESS_N];
  int c, guess = utf8_guess(s, n), k;
  fold((uint64_t)(guess+2));
  fold((uint64_t)utf8_guess_score(s, n, score, hash));
  for(c=0; c<UTF8_GUESS_N; c++){
    fold((uint64_t)(uint32_t)score[c]);
    if( score[c]!=UTF8_GUESS_OUT ) fold(hash[c]);
    fold((uint64_t)utf8_guess_plausible(score, c));
    /* the set at once says what each charset's own question says */
    nSetWrong += (int)(utf8_guess_plausible_set(score)>>c & 1)
              != utf8_guess_plausible(score, c);
  }
  fold((uint64_t)(utf8_guess_pick(score, hash)+2));
  if( nValue%8==0 ) utf8_guess_group_init(&group);
  utf8_guess_group_add(&group, score, hash);
  fold((uint64_t)(utf8_guess_group_pick(&group)+2));
  /* the group's choice for a value is a reading priced exactly (within
  ** the cap of the cheapest), and the value's own confident pick when that
  ** reads it more than the largest prior of the group cheaper (the prior
  ** of a charset never picked: log2(values + 37) bits) */
  {
    int ch = utf8_guess_group_choose(&group, score, hash);
    int pk = utf8_guess_pick(score, hash), ok = 0;
    int32_t cheapest = UTF8_GUESS_OUT, cPick = UTF8_GUESS_OUT, cCh = UTF8_GUESS_OUT;
    double maxPrior = 4.0*log2((double)(group.nValue + UTF8_GUESS_N));
    for(c=0; c<UTF8_GUESS_N; c++) if( score[c]<cheapest ) cheapest = score[c];
    if( ch==UTF8_GUESS_NONE ){
      ok = cheapest==UTF8_GUESS_OUT;
    }else{
      /* (the charset named may read the text alike at a higher cost) */
      for(c=0; c<UTF8_GUESS_N; c++){
        if( score[c]==UTF8_GUESS_OUT ) continue;
        if( pk!=UTF8_GUESS_NONE && hash[c]==hash[pk] && score[c]<cPick ) cPick = score[c];
        if( hash[c]==hash[ch] && score[c]<cCh ) cCh = score[c];
      }
      ok = score[ch]!=UTF8_GUESS_OUT && cCh-cheapest<UTF8_GUESS_CAP;
      if( pk!=UTF8_GUESS_NONE && hash[pk]!=hash[ch] && cCh-cPick>maxPrior+1 ) ok = 0;
    }
    nChooseWrong += !ok;
  }
  k = utf8_guess_group_rank(&group, order);
  for(c=0; c<k; c++) fold(order[c]);
  nValue++;
  if( guess==UTF8_GUESS_NONE ) nNone++; else nNamed++;
}

/*
** utf8_guess_group_choose() on made-up scores: a group of 200 values that
** windows-1251 explains. A value that KOI8-R reads 2.5 or 5.25 bits
** cheaper stays windows-1251 (KOI8-R, never picked, has a prior of
** log2(237) = 7.9 bits, windows-1251 0.2); one that it reads 8 bits
** cheaper is KOI8-R. Then a group of 100 windows-1251 values and 100
** KOI8-R ones, and a value that windows-1251 reads 2 bits cheaper than
** KOI8-R, but KOI8-U, reading it alike to KOI8-R, 2 bits dearer: the
** KOI8 text is taken at KOI8-U's cost and KOI8-R's picks, and named
** KOI8-R. Returns how many answers were wrong.
*/
static int check_choose(void){
  utf8_guess_group gr;
  int32_t score[UTF8_GUESS_N];
  uint64_t hash[UTF8_GUESS_N];
  int k, c, nWrong = 0;
  utf8_guess_group_init(&gr);
  for(k=0; k<200; k++){
    for(c=0; c<UTF8_GUESS_N; c++){ score[c] = UTF8_GUESS_OUT; hash[c] = (uint64_t)c; }
    score[UTF8_CS_WINDOWS_1251] = 100;
    score[UTF8_CS_KOI8_R] = 100 + 40;
    utf8_guess_group_add(&gr, score, hash);
  }
  score[UTF8_CS_KOI8_R] = 100;
  score[UTF8_CS_WINDOWS_1251] = 100 + 10;
  nWrong += utf8_guess_group_choose(&gr, score, hash)!=UTF8_CS_WINDOWS_1251;
  score[UTF8_CS_WINDOWS_1251] = 100 + 21;
  nWrong += utf8_guess_group_choose(&gr, score, hash)!=UTF8_CS_WINDOWS_1251;
  score[UTF8_CS_WINDOWS_1251] = 100 + 32;
  nWrong += utf8_guess_group_choose(&gr, score, hash)!=UTF8_CS_KOI8_R;

  utf8_guess_group_init(&gr);
  for(k=0; k<200; k++){
    for(c=0; c<UTF8_GUESS_N; c++){ score[c] = UTF8_GUESS_OUT; hash[c] = (uint64_t)c; }
    score[UTF8_CS_WINDOWS_1251] = 100 + (k%2 ? 40 : 0);
    score[UTF8_CS_KOI8_R] = 100 + (k%2 ? 0 : 40);
    utf8_guess_group_add(&gr, score, hash);
  }
  hash[UTF8_CS_KOI8_U] = hash[UTF8_CS_KOI8_R];
  score[UTF8_CS_WINDOWS_1251] = 100;
  score[UTF8_CS_KOI8_R] = 100 + 8;
  score[UTF8_CS_KOI8_U] = 100 - 8;
  nWrong += utf8_guess_group_choose(&gr, score, hash)!=UTF8_CS_KOI8_R;
  return nWrong;
}

/* A value of n bytes of one of four kinds. */
static void make(unsigned char *buf, size_t n, int kind){
  static const char zText[] = "etaoin shrdlu ETAOIN cmfwyp";
  size_t i;
  for(i=0; i<n; i++){
    uint32_t x = rnd();
    switch( kind ){
      case 0: buf[i] = (unsigned char)x; break;
      case 1: buf[i] = (unsigned char)(x%3==0 ? 0x80|(x>>8) : 0x20+(x>>8)%95); break;
      case 2: buf[i] = (unsigned char)(x%5==0 ? 0x80|(x>>8)
                                       : (unsigned char)zText[(x>>8)%(sizeof(zText)-1)]); break;
      default: buf[i] = (unsigned char)(x%2 ? 0xC0+(x>>8)%0x3F : 0x80+(x>>8)%0x40);
    }
  }
}

/* The long values: the window, many runs, a long word. */
static void long_values(unsigned char *buf){
  size_t n, i;
  int k;
  for(k=0; k<4; k++){
    n = 70000 + rnd()%5000;
    make(buf, n, 1 + k%2);
    if( k>=2 ) for(i=0; i<40000; i++) buf[i] = (unsigned char)('a' + i%26);
    check(buf, n);
  }
  for(i=0; i<600; i++) buf[i] = i%3==2 ? 0xE9 : 'a' + (unsigned char)(i%7);
  check(buf, 600);                               /* 200 runs */
  for(i=0; i<2000; i++) buf[i] = 'a' + (unsigned char)(i%26);
  buf[1000] = 0xFC;
  check(buf, 2000);                              /* a word of 2,000 letters */
  memcpy(buf, "Gr\xFC\xDF" "e ", 6);
  for(i=6; i<3000; i++) buf[i] = 'a' + (unsigned char)(i%26);
  check(buf, 3000);                              /* words past 24 letters */
}

int main(int argc, char **argv){
  static unsigned char buf[80000];
  int k;
  for(k=0; k<40000; k++){
    size_t n = 1 + rnd()%(k%10==0 ? 400 : 40);
    make(buf, n, (int)(rnd()%4));
    check(buf, n);
  }
  long_values(buf);
  nChooseWrong += check_choose();
  if( argc>1 && strcmp(argv[1], "--print")==0 ){
    printf("0x%016llxull\n", (unsigned long long)sum);
    return 0;
  }
  printf("guess: %ld values, %ld named, %ld not; checksum %016llx; "
         "plausible sets that disagree %ld; group choices wrong %ld\n",
         nValue, nNamed, nNone, (unsigned long long)sum, nSetWrong, nChooseWrong);
  if( sum!=GUESS_GOLDEN ){
    printf("FAIL: the guess changed: the checksum should be %016llx\n",
           (unsigned long long)GUESS_GOLDEN);
  }
  if( nSetWrong ){
    printf("FAIL: utf8_guess_plausible_set() disagrees with utf8_guess_plausible()\n");
  }
  if( nChooseWrong ){
    printf("FAIL: utf8_guess_group_choose() took a reading it should not\n");
  }
  printf("guess: %d passed, %d failed\n",
         (sum==GUESS_GOLDEN) + (nSetWrong==0) + (nChooseWrong==0),
         (sum!=GUESS_GOLDEN) + (nSetWrong!=0) + (nChooseWrong!=0));
  return sum!=GUESS_GOLDEN || nSetWrong!=0 || nChooseWrong!=0;
}
