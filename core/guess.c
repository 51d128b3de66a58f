/*
** core/guess.c - the charset guess (core/guess.h): decode with every
** candidate, price each decoding with the model of real text, keep the
** cheapest when it wins by a margin (docs/guess.md tells the rule).
**
** Two stages. First every candidate is priced by the pooled model (all
** languages in one table), and those far from the cheapest are out. Then
** each one left is priced by the model of each language its charset is
** used for, the cheapest language counting, plus what the value's words
** of ASCII letters cost in that language.
**
** Only what the bytes >= 0x80 decode to, the ASCII letters of the same
** words (in the second stage), and the characters next to those, are
** priced: the rest of the ASCII decodes alike under every candidate
** (uchardet's "filter without English letters" rests on the same fact). A
** value is walked by its runs of bytes >= 0x80; a multi-byte character
** may take an ASCII trail byte, and the walk then resumes after it. Only
** GUESS_MAX_BYTES of a value are read, from just before its first
** ill-formed unit: evidence enough, and a bound on the time a 100 MB
** value takes.
*/
#include "guess.h"
#include "model.h"
#include "utf8.h"

#include <stdatomic.h>
#include <string.h>

#define Q UTF8_MODEL_QUANT

/*
** A candidate's prior, in 1/4 bits: how much less often text is stored in
** it than in the most common charsets of its script. It decides between
** charsets that read a value alike (ISO-8859-1 text is windows-1252 text;
** most Russian reads the same in KOI8-R and KOI8-U), and tips a close call
** toward the charset that is more often met.
*/
static const int16_t aPrior[UTF8_GUESS_N] = {
  [UTF8_CS_IBM866] = 3*Q,
  [UTF8_CS_ISO8859_2] = 1*Q, [UTF8_CS_ISO8859_3] = 4*Q,
  [UTF8_CS_ISO8859_4] = 3*Q, [UTF8_CS_ISO8859_5] = 3*Q,
  [UTF8_CS_ISO8859_6] = 2*Q, [UTF8_CS_ISO8859_7] = 1*Q,
  [UTF8_CS_ISO8859_8] = 1*Q, [UTF8_CS_ISO8859_10] = 4*Q,
  [UTF8_CS_ISO8859_13] = 3*Q, [UTF8_CS_ISO8859_14] = 4*Q,
  [UTF8_CS_ISO8859_15] = 1*Q, [UTF8_CS_ISO8859_16] = 3*Q,
  [UTF8_CS_KOI8_R] = 1*Q, [UTF8_CS_KOI8_U] = 2*Q,
  [UTF8_CS_MACINTOSH] = 2*Q, [UTF8_CS_WINDOWS_874] = 0,
  [UTF8_CS_WINDOWS_1250] = 0, [UTF8_CS_WINDOWS_1251] = 0,
  [UTF8_CS_WINDOWS_1252] = 0, [UTF8_CS_WINDOWS_1253] = 0,
  [UTF8_CS_WINDOWS_1254] = 0, [UTF8_CS_WINDOWS_1255] = 0,
  [UTF8_CS_WINDOWS_1256] = 0, [UTF8_CS_WINDOWS_1257] = 0,
  [UTF8_CS_WINDOWS_1258] = 1*Q, [UTF8_CS_X_MAC_CYRILLIC] = 3*Q,
  [UTF8_CS_IBM437] = 3*Q, [UTF8_CS_IBM850] = 3*Q, [UTF8_CS_LATIN1] = 0,
  [UTF8_CS_GBK] = 0, [UTF8_CS_GB18030] = 0, [UTF8_CS_BIG5] = 0,
  [UTF8_CS_EUC_JP] = 1*Q, [UTF8_CS_SHIFT_JIS] = 0, [UTF8_CS_EUC_KR] = 0,
  [UTF8_GUESS_UTF8] = 0,
};

/*
** What an ill-formed unit costs when the value is read as damaged UTF-8,
** in place of pricing a character there:
**
** - CUT_COST, a character cut at the end of the value (a column too short,
**   a cut at a byte count), common: a value that ends in a lone lead byte
**   was far more often cut than written in a charset where that byte is a
**   letter at the end, so the cut is a bonus of 10 bits (on
**   test/import_auto.py's import, 238 of 240 cut rows are then mended, and
**   no legacy row is lost to it; at +3 bits, 189);
** - VARIANT_COST, a sequence of UTF-8's shape but not its rules as
**   UTF-8's variants write it (CESU-8's surrogates, MUTF-8's C0 80, past
**   U+10FFFF): a variant of UTF-8;
** - OVERLONG_COST, any other overlong form: UTF-8's shape, which lone
**   damage seldom has ("..\xC0\xAFetc", the classic path trick, is UTF-8
**   made to fool a check), but no encoder writes it, and legacy text has
**   the shape (EUC-KR's 제 and 을 are C1 A6 and C0 BB); at 4 bits, as a
**   variant, "제 0 조." read as UTF-8 4 bits under its EUC-KR reading, and
**   'auto' mended it to U+FFFD;
** - DAMAGE_COST, any other ill-formed unit: rare in UTF-8 text, and legacy
**   text read as UTF-8 is made of it; DAMAGE_ALONE_COST in a value with no
**   well-formed multi-byte character, where nothing says it is UTF-8 at
**   all: one byte >= 0x80 among ASCII is what a single-byte charset
**   writes, and damage is the likelier reading only when it was
**   cheap ("Documentaci\xF3n completa: <https://...>": the URL's words cost
**   less in English, where ó is dear; legacy rows of test/import_auto.py's
**   import back exactly at three seeds: 50,019 -> 50,034, 49,975 -> 49,989,
**   50,049 -> 50,058; guess_eval's exact 97.33% -> 97.39%, wrong 0.15% ->
**   0.18%).
*/
#define CUT_COST     (-10*Q)
#define VARIANT_COST (4*Q)
#define OVERLONG_COST (24*Q)
#define DAMAGE_COST  (24*Q)
#define DAMAGE_ALONE_COST (48*Q)

/* A candidate the pooled model prices this much above the cheapest is not
** priced again by its languages' models: it is out. */
#define PRUNE (20*Q)

/* The bytes of a value read, at most (see the top of the file). */
#define GUESS_MAX_BYTES (64*1024)

/* The order candidates are priced in: the likeliest first, so that the
** others can stop as soon as they cannot come close. */
static const uint8_t aOrder[] = {
  UTF8_GUESS_UTF8, UTF8_CS_WINDOWS_1252, UTF8_CS_WINDOWS_1251,
  UTF8_CS_WINDOWS_1250, UTF8_CS_GB18030, UTF8_CS_SHIFT_JIS, UTF8_CS_BIG5,
  UTF8_CS_EUC_KR, UTF8_CS_EUC_JP, UTF8_CS_KOI8_R, UTF8_CS_WINDOWS_1253,
  UTF8_CS_WINDOWS_1254, UTF8_CS_WINDOWS_1255, UTF8_CS_WINDOWS_1256,
  UTF8_CS_WINDOWS_1257, UTF8_CS_WINDOWS_1258, UTF8_CS_WINDOWS_874,
  UTF8_CS_ISO8859_2, UTF8_CS_ISO8859_15, UTF8_CS_KOI8_U, UTF8_CS_IBM866,
  UTF8_CS_X_MAC_CYRILLIC, UTF8_CS_MACINTOSH, UTF8_CS_IBM437,
  UTF8_CS_IBM850, UTF8_CS_ISO8859_3, UTF8_CS_ISO8859_4, UTF8_CS_ISO8859_5,
  UTF8_CS_ISO8859_6, UTF8_CS_ISO8859_7, UTF8_CS_ISO8859_8,
  UTF8_CS_ISO8859_10, UTF8_CS_ISO8859_13, UTF8_CS_ISO8859_14,
  UTF8_CS_ISO8859_16,
};

/*
** A value as every candidate walks it, worked out once: its runs of bytes
** >= 0x80 (the first MAX_RUNS; past them, price() looks for the rest
** itself).
*/
#define MAX_RUNS 128
/* At most this many letters of ASCII-only words are priced per language. */
#define WORD_LETTERS 24
typedef struct value_view {
  const unsigned char *s;
  size_t n;
  int nRun;                     /* runs in aStart/aEnd */
  int bMore;                    /* more runs after the last one kept */
  size_t aStart[MAX_RUNS], aEnd[MAX_RUNS];
  uint8_t aGapLetter[MAX_RUNS]; /* 1 if the ASCII before the run has a letter */
  int nWord;                    /* words of word_cost() in aWordA/aWordB */
  size_t aWordA[WORD_LETTERS], aWordB[WORD_LETTERS];
  size_t lastLetter;            /* 1 + where the last ASCII letter is, or 0 */
  int32_t damage;               /* what an ill-formed unit costs as UTF-8 */
  int nHigh;                    /* the distinct bytes >= 0x80, ascending */
  uint8_t aHigh[128];
  uint64_t mHigh[2];            /* the same as a set: bit b-0x80 */
  uint16_t aCount[128];         /* how often each occurs (at most 65535) */
  const uint32_t *aAscii;       /* utf8_model_info() of each ASCII byte */
  const struct single_tables *pTab;  /* single_tables_get() */
} value_view;

static int is_ascii_letter(unsigned char c){
  return (c|0x20)>='a' && (c|0x20)<='z';
}

/*
** The distinct bytes of the value: those >= 0x80 into aHigh (what a
** single-byte charset's reading of it depends on) and how often each
** comes into aCount (a reading's lower bound).
*/
static void distinct_bytes(value_view *v){
  uint64_t seen[4] = { 0, 0, 0, 0 };
  size_t i;
  int b;
  uint16_t cnt[256];
  memset(cnt+128, 0, 128*sizeof(cnt[0]));
  for(i=0; i<v->n; i++){
    unsigned char c = v->s[i];
    seen[c>>6] |= (uint64_t)1<<(c&63);
    if( c>=0x80 ) cnt[c] += cnt[c]<0xFFFF;      /* a lower bound past it */
  }
  v->nHigh = 0;
  v->mHigh[0] = seen[2];
  v->mHigh[1] = seen[3];
  for(b=2; b<4; b++){
    for(; seen[b]; seen[b] &= seen[b]-1){
      int c = 64*b + __builtin_ctzll(seen[b]);
      v->aCount[v->nHigh] = cnt[c];
      v->aHigh[v->nHigh++] = (uint8_t)c;
    }
  }
}

/* 1 if s[from..to) has an ASCII letter. */
static int has_letter(const unsigned char *s, size_t from, size_t to){
  for(; from<to; from++) if( is_ascii_letter(s[from]) ) return 1;
  return 0;
}

static void view_init(value_view *v, const unsigned char *s, size_t n){
  size_t i = 0, nLetter = 0;
  v->s = s;
  v->n = n;
  v->nRun = 0;
  v->bMore = 0;
  v->nWord = 0;
  v->lastLetter = 0;
  v->damage = DAMAGE_ALONE_COST;
  for(i=n; i>0; i--) if( is_ascii_letter(s[i-1]) ){ v->lastLetter = i; break; }
  distinct_bytes(v);
  i = 0;
  while( i<n ){
    if( s[i]<0x80 ){ i++; continue; }
    if( v->nRun==MAX_RUNS ){ v->bMore = 1; break; }
    v->aStart[v->nRun] = i;
    v->aGapLetter[v->nRun] = (uint8_t)has_letter(s, v->nRun ? v->aEnd[v->nRun-1] : 0, i);
    while( i<n && s[i]>=0x80 ){
      /* a lead byte and a continuation byte may begin a well-formed
      ** character; most legacy text never has the pair */
      if( v->damage!=DAMAGE_COST && s[i]>=0xC2 && i+1<n && (s[i+1]&0xC0)==0x80
       && utf8_decode_unit(s+i, n-i).reason==UTF8_OK ){
        v->damage = DAMAGE_COST;
      }
      i++;
    }
    v->aEnd[v->nRun++] = i;
  }
  /* the words all of ASCII letters, not next to a byte >= 0x80 (those
  ** are priced with their candidates), up to WORD_LETTERS letters */
  i = 0;
  while( i<n && nLetter<WORD_LETTERS && v->nWord<WORD_LETTERS ){
    size_t a, b;
    while( i<n && !is_ascii_letter(s[i]) ) i++;
    a = i;
    while( i<n && is_ascii_letter(s[i]) ) i++;
    b = i;
    if( a==b ) break;
    if( (a>0 && s[a-1]>=0x80) || (b<n && s[b]>=0x80) ) continue;
    nLetter += b-a;
    v->aWordA[v->nWord] = a;
    v->aWordB[v->nWord++] = b;
  }
}

/*
** Code points whose UTF-8 begins with the n bytes of a truncated unit at
** z (n is 1 to 3): the second byte 80, 90, A0 or B0 where well-formed,
** the rest of the bytes 80. Up to 4 into cp; returns how many.
*/
static int cut_characters(const unsigned char *z, size_t n, uint32_t cp[4]){
  static const unsigned char aSecond[] = { 0x80, 0x90, 0xA0, 0xB0 };
  size_t len = z[0]>=0xF0 ? 4 : z[0]>=0xE0 ? 3 : 2, k;
  int j, nOut = 0;
  for(j=0; j<4; j++){
    unsigned char b[4];
    utf8_unit u;
    if( n>=2 && j>0 ) break;          /* its second byte is there already */
    for(k=0; k<len; k++){
      b[k] = k<n ? z[k] : k==1 ? aSecond[j] : 0x80;
    }
    u = utf8_decode_unit(b, len);
    if( u.reason==UTF8_OK ) cp[nOut++] = u.codepoint;
  }
  return nOut;
}

/*
** The length of a sequence at z that has the shape of UTF-8 (a lead byte
** and as many continuation bytes as it announces) but is ill-formed: an
** overlong form (MUTF-8's C0 80), a surrogate (CESU-8's halves), a code
** point past U+10FFFF. A CESU-8 surrogate pair is taken whole, and cp[0]
** gets the character it makes; otherwise cp[0] is 0. 0 if there is none.
** *pCost gets what it costs: OVERLONG_COST for an overlong form but C0 80,
** else VARIANT_COST.
*/
static size_t utf8_variant(const unsigned char *z, size_t n, uint32_t cp[2],
                           int32_t *pCost){
  size_t len, k;
  cp[0] = cp[1] = 0;
  if( z[0]<0xC0 || z[0]>0xF7 ) return 0;
  len = z[0]<0xE0 ? 2 : z[0]<0xF0 ? 3 : 4;
  if( n<len ) return 0;
  for(k=1; k<len; k++) if( (z[k]&0xC0)!=0x80 ) return 0;
  if( utf8_decode_unit(z, n).reason==UTF8_OK ) return 0;   /* well-formed */
  *pCost = z[0]<0xF4 && !(z[0]==0xC0 && z[1]==0x80) && !(z[0]==0xED && z[1]>=0xA0)
         ? OVERLONG_COST : VARIANT_COST;
  if( z[0]==0xED && z[1]>=0xA0 && z[1]<0xB0 && n>=6 && z[3]==0xED
   && z[4]>=0xB0 && z[4]<=0xBF && (z[5]&0xC0)==0x80 ){
    uint32_t hi = 0xD000 | ((uint32_t)(z[1]&0x3F)<<6) | (z[2]&0x3F);
    uint32_t lo = 0xD000 | ((uint32_t)(z[4]&0x3F)<<6) | (z[5]&0x3F);
    cp[0] = 0x10000 + ((hi-0xD800)<<10) + (lo-0xDC00);
    return 6;
  }
  return len;
}

/* A reading in progress: its cost so far, the character before, a hash. */
typedef struct reading {
  int32_t cost;
  utf8_model_state prev;
  uint64_t hash;
} reading;

static void add(reading *r, uint32_t cp){
  r->cost += utf8_model_step(&r->prev, cp);
  r->hash = (r->hash ^ cp) * 0x100000001B3ull;
}

/* utf8_model_info() of byte b of the value read as a code point: of an
** ASCII byte, from a table made once. (A walk that stops early may take
** the byte after a run's last character as if ASCII: that byte too.) */
static uint32_t byte_info(const value_view *v, unsigned char b){
  return b<0x80 ? v->aAscii[b] : utf8_model_info(b);
}

/* add() of the value's byte b. */
static void add_byte(reading *r, const value_view *v, unsigned char b){
  r->cost += utf8_model_step_info(&r->prev, byte_info(v, b));
  r->hash = (r->hash ^ b) * 0x100000001B3ull;
}

/* Make the last characters of the ASCII s[from..to) the previous ones
** of p (the one at from was priced when from > 0). */
static void ascii_last(utf8_model_state *p, const value_view *v, size_t from,
                       size_t to){
  const unsigned char *s = v->s;
  if( to-1>from || from==0 ){
    utf8_model_set_info2(p, to>=2 ? byte_info(v, s[to-2]) : 0,
                          byte_info(v, s[to-1]));
  }
}

/*
** The ASCII s[from..to) between priced characters (or an end of the
** value): its first character follows a priced character (unless from is
** 0), its first letter follows the last letter priced, its last character
** precedes the next run. The rest reads alike in every candidate.
*/
static void ascii(reading *r, const value_view *v, size_t from, size_t to,
                  int bLetter){
  const unsigned char *s = v->s;
  if( from>0 ){
    add_byte(r, v, s[from]);
    if( bLetter && !is_ascii_letter(s[from]) ){
      r->cost += utf8_model_latin(&r->prev);
    }
  }else if( bLetter ){
    r->prev.script = UTF8_MODEL_SCRIPT_LATIN;       /* alike in all */
  }
  ascii_last(&r->prev, v, from, to);
}

/*
** The next run of bytes >= 0x80 a walk at *pi goes on with (*pk runs of
** the view taken): 0 when none is left; else *pi moves to its start
** (unless the last character took its first bytes) and *pEnd gets its end.
*/
static int next_run(const value_view *v, int *pk, size_t *pi, size_t *pEnd){
  const unsigned char *s = v->s;
  size_t i = *pi, n = v->n;
  while( *pk<v->nRun ){
    int k = (*pk)++;
    if( v->aEnd[k]<=i ) continue;           /* taken by the last character */
    if( v->aStart[k]>i ) *pi = v->aStart[k];
    *pEnd = v->aEnd[k];
    return 1;
  }
  if( !v->bMore ) return 0;                 /* past MAX_RUNS: look for it */
  while( i<n && s[i]<0x80 ) i++;
  if( i>=n ) return 0;
  *pi = i;
  while( i<n && s[i]>=0x80 ) i++;
  *pEnd = i;
  return 1;
}

/*
** Price s[0..n) read as candidate c; UTF8_GUESS_OUT if c cannot read it.
** Stops early (returning a cost above limit) once the cost passes limit.
*/
static int32_t price(const value_view *v, int c, int lang, int32_t limit,
                     uint64_t *pHash){
  const unsigned char *s = v->s;
  size_t n = v->n;
  reading r;
  size_t i = 0, pos = 0, end;
  int k = 0;
  const uint16_t *single = c<UTF8_CS_FIRST_MULTI ? utf8_cs_single[c] : 0;
  r.cost = aPrior[c];
  r.hash = 0xCBF29CE484222325ull;
  utf8_model_start(&r.prev, lang);
  while( next_run(v, &k, &i, &end) ){
    size_t w;
    /* the letters of its word before it are priced with it: they tell
    ** one language from another (uchardet keeps such words whole too) */
    for(w=i; lang>=0 && w>pos && is_ascii_letter(s[w-1]); w--){}
    if( w>pos ) ascii(&r, v, pos, w, has_letter(s, pos, w));
    for(; w<i; w++) add(&r, s[w]);
    while( i<end ){
      uint32_t cp[2];
      if( single ){
        cp[0] = single[s[i]-0x80]; cp[1] = 0;
        i++;
        if( cp[0]==0xFFFD ) return UTF8_GUESS_OUT;
      }else if( c==UTF8_GUESS_UTF8 ){
        utf8_unit u = utf8_decode_unit(s+i, n-i);
        int32_t x = 0;
        size_t k = u.reason==UTF8_OK ? 0 : utf8_variant(s+i, n-i, cp, &x);
        if( k ){
          /* UTF-8 in shape, not in value (Java's C0 80, Oracle's
          ** CESU-8 surrogates, past U+10FFFF): UTF-8 text all the same,
          ** which utf8_fix mends */
          i += k;
          r.cost += x;
          r.hash = (r.hash ^ 0xFFFE) * 0x100000001B3ull;
          if( cp[0] ) add(&r, cp[0]);
          continue;
        }
        i += u.length;
        if( u.reason!=UTF8_OK ){
          r.hash = (r.hash ^ 0xFFFD) * 0x100000001B3ull;
          if( i==n && u.reason==UTF8_TRUNCATED ){
            /* cut at the end: what was cut is priced as the cheapest of
            ** the characters its bytes could begin (C3: À, Ð, à, ð; EB: a
            ** Hangul syllable), plus the cut */
            uint32_t aCut[4];
            int nCut = cut_characters(s+i-u.length, u.length, aCut), j;
            reading best = r;
            for(j=0; j<nCut; j++){
              reading t = r;
              add(&t, aCut[j]);
              if( j==0 || t.cost<best.cost ) best = t;
            }
            r = best;
            r.cost += CUT_COST;
          }else{
            r.cost += v->damage;
          }
          continue;
        }
        cp[0] = u.codepoint;
        cp[1] = 0;
      }else{
        i += utf8_charset_step(s+i, n-i, (utf8_charset)c, cp);
        if( cp[0]==0xFFFD ) return UTF8_GUESS_OUT;
      }
      add(&r, cp[0]);
      if( cp[1] ) add(&r, cp[1]);
      /* cut short: out of it (a cost only grows, but for UTF-8's cut at
      ** the end, which the pooled walk waits for) */
      if( (lang>=0 || c!=UTF8_GUESS_UTF8) && r.cost>limit ) return r.cost;
    }
    while( lang>=0 && i<n && is_ascii_letter(s[i]) ) add(&r, s[i++]);  /* ... and after */
    pos = i;
    r.hash = (r.hash ^ (uint64_t)pos) * 0x100000001B3ull;
    if( r.cost>limit ) break;
  }
  if( pos<n ) ascii(&r, v, pos, n, v->lastLetter>pos);
  else r.cost += utf8_model_end(&r.prev);
  *pHash = r.hash;
  return r.cost;
}

/*
** What the model knows of the character each single-byte charset reads
** each byte >= 0x80 as (utf8_model_info()), and the least the pooled
** model can charge for that character wherever it stands (every part of a
** cost is at least 0, so a reading costs at least its prior plus the sum
** of these over its bytes): worked out once, at the first guess, by the
** thread that gets there first (the others wait; it takes well under a
** millisecond).
*/
typedef struct single_tables {
  uint32_t aAscii[128];         /* and what it knows of each ASCII byte */
  uint32_t aInfo[UTF8_CS_FIRST_MULTI][128];
  uint16_t aBound[UTF8_CS_FIRST_MULTI][128];
  uint64_t aNone[UTF8_CS_FIRST_MULTI][2];   /* the bytes it has no character for */
  uint64_t aDiff[UTF8_CS_FIRST_MULTI][UTF8_CS_FIRST_MULTI][2];  /* read apart */
} single_tables;
static single_tables singleTables;
static atomic_int singleState;          /* 0 none, 1 being made, 2 made */

/* The least utf8_model_step() charges in the pooled model for the
** character of info, given aMin: the least of each column of the pairs
** of classes. */
static int32_t char_bound(uint32_t info, const uint8_t *aMin){
  unsigned k = (info>>9) & 3, sc = (info>>11) & 0xF, cls = info & 0x1FF;
  int32_t x = (int32_t)(info>>16) + aMin[cls];
  uint8_t m = 255;
  int a, b;
  if( k ){
    for(a=0; a<3; a++) for(b=0; b<3; b++){
      if( utf8_model_case[a][b][k]<m ) m = utf8_model_case[a][b][k];
    }
    x += m;
  }
  if( sc ){
    m = 255;
    for(a=0; a<UTF8_MODEL_NSCRIPT; a++){
      if( utf8_model_script[a][sc]<m ) m = utf8_model_script[a][sc];
    }
    x += m;
  }
  return x;
}

static void single_tables_make(void){
  uint8_t aMin[UTF8_MODEL_NCLASS];
  unsigned a, b;
  int c;
  for(b=0; b<UTF8_MODEL_NCLASS; b++){
    aMin[b] = 255;
    for(a=0; a<UTF8_MODEL_NCLASS; a++){
      uint8_t x = utf8_model_bigram[a*UTF8_MODEL_NCLASS + b];
      if( x<aMin[b] ) aMin[b] = x;
    }
  }
  for(b=0; b<128; b++) singleTables.aAscii[b] = utf8_model_info(b);
  for(c=0; c<UTF8_CS_FIRST_MULTI; c++){
    for(b=0; b<128; b++){
      uint32_t info = utf8_model_info(utf8_cs_single[c][b]);
      int32_t x = char_bound(info, aMin);
      singleTables.aInfo[c][b] = info;
      singleTables.aBound[c][b] = (uint16_t)(x<0xFFFF ? x : 0xFFFF);
      if( utf8_cs_single[c][b]==0xFFFD ){
        singleTables.aNone[c][b>>6] |= (uint64_t)1<<(b&63);
      }
    }
  }
  for(c=0; c<UTF8_CS_FIRST_MULTI; c++){
    int d;
    for(d=0; d<UTF8_CS_FIRST_MULTI; d++){
      for(b=0; b<128; b++){
        if( utf8_cs_single[c][b]!=utf8_cs_single[d][b] ){
          singleTables.aDiff[c][d][b>>6] |= (uint64_t)1<<(b&63);
        }
      }
    }
  }
}

static const single_tables *single_tables_get(void){
  if( atomic_load_explicit(&singleState, memory_order_acquire)!=2 ){
    int expected = 0;
    if( atomic_compare_exchange_strong(&singleState, &expected, 1) ){
      single_tables_make();
      atomic_store_explicit(&singleState, 2, memory_order_release);
    }else{
      while( atomic_load_explicit(&singleState, memory_order_acquire)!=2 ){}
    }
  }
  return &singleTables;
}

/* The least single-byte candidate c's reading of the value can cost in
** the pooled model (its prior included). */
static int32_t single_bound(const value_view *v, int c){
  const uint16_t *t = v->pTab->aBound[c];
  int32_t x = aPrior[c];
  int j;
  for(j=0; j<v->nHigh; j++) x += v->aCount[j] * t[v->aHigh[j]-0x80];
  return x;
}

/* utf8_model_step() in the pooled model of the character of info. */
static inline int32_t pooled_step(utf8_model_state *p, uint32_t info){
  unsigned cls;
  int32_t cost = utf8_model_own_info(p, info, &cls);
  cost += utf8_model_bigram[p->cls*UTF8_MODEL_NCLASS + cls];
  p->cls = (uint16_t)cls;
  return cost;
}

/*
** price() of single-byte candidate c in the pooled model (stage 1, where
** most candidates are single-byte): the same walk and the same figures,
** without a decoder's or a language's branches.
*/
static int32_t price_single(const value_view *v, int c, int32_t limit,
                            uint64_t *pHash){
  const uint16_t *t = utf8_cs_single[c];
  const unsigned char *s = v->s;
  size_t i = 0, pos = 0, end;
  int k = 0;
  reading r;
  const uint32_t *aInfo = v->pTab->aInfo[c];
  r.cost = aPrior[c];
  r.hash = 0xCBF29CE484222325ull;
  utf8_model_start(&r.prev, -1);
  while( next_run(v, &k, &i, &end) ){
    /* a single-byte walk takes the runs as they are: the view knows
    ** whether the ASCII before one has a letter */
    if( i>pos ) ascii(&r, v, pos, i, k<=v->nRun ? v->aGapLetter[k-1]
                                                : has_letter(s, pos, i));
    for(; i<end; i++){
      uint32_t cp = t[s[i]-0x80];
      if( cp==0xFFFD ) return UTF8_GUESS_OUT;
      r.cost += pooled_step(&r.prev, aInfo[s[i]-0x80]);
      r.hash = (r.hash ^ cp) * 0x100000001B3ull;
      if( r.cost>limit ) return r.cost;   /* out of it: every part is >= 0 */
    }
    pos = i;
    r.hash = (r.hash ^ (uint64_t)pos) * 0x100000001B3ull;
    if( r.cost>limit ) break;
  }
  if( pos<v->n ) ascii(&r, v, pos, v->n, v->lastLetter>pos);
  else r.cost += utf8_model_end(&r.prev);
  *pHash = r.hash;
  return r.cost;
}

/*
** What the words of s that are all ASCII letters (not next to a byte >=
** 0x80: those are priced with their candidates) cost in language lang:
** the same for every candidate of that language, but not for every
** language, and they often say which language a value is in ("nicht"
** next to "primär"). Up to WORD_LETTERS letters, from the start.
*/
static int32_t word_cost(const value_view *v, int lang){
  const unsigned char *s = v->s;
  int32_t cost = 0;
  int k;
  utf8_model_state st;
  for(k=0; k<v->nWord; k++){
    size_t a = v->aWordA[k], b = v->aWordB[k];
    utf8_model_start(&st, lang);
    st.script = UTF8_MODEL_SCRIPT_LATIN;
    if( a>0 ) utf8_model_set(&st, s[a-1]);
    for(; a<b; a++) cost += utf8_model_step(&st, s[a]);
    cost += b<v->n ? utf8_model_step(&st, s[b]) : utf8_model_end(&st);
  }
  return cost;
}

/*
** Stage 2 prices a survivor in each language of its charset. A reading's
** cost splits in two: the pairs of classes, which each language prices
** its own way, and the rest (a symbol within its class, a case after a
** case, a script after a script), which every language prices alike. So
** record() walks the reading once, as price() does, into steps, and
** steps_price() adds up each language's pairs: price()'s figure exactly,
** checked against limit at the same places, for a few loads a character.
*/
#define NO_PAIR   0xFFFF   /* a step that prices no pair of classes */
#define STEP_CHECK 1       /* price() stops here when over limit */
#define STEP_RUN   2       /* a run ends here: over limit, its tail, then out */
#define STEP_MAX 512       /* a longer reading is priced by price() */

typedef struct step {
  uint16_t from, to;       /* the pair of classes priced, or to==NO_PAIR */
  int16_t cost;            /* the part alike in every language */
  uint8_t flag;
} step;

typedef struct steps {
  int n;                   /* steps in a; past STEP_MAX, too long */
  utf8_model_state st;     /* the class, case and script after the last */
  step a[STEP_MAX];
  step aTail[STEP_MAX];    /* after a step of STEP_RUN: the rest of the value */
  step last;               /* what the rest of the value costs at the end */
  step spare;              /* written when a is full */
} steps;

static step *rec_step(steps *p, unsigned from, unsigned to, int32_t cost){
  step *t = p->n<STEP_MAX ? &p->a[p->n] : &p->spare;
  p->n += p->n<=STEP_MAX;
  t->from = (uint16_t)from;
  t->to = (uint16_t)to;
  t->flag = 0;
  t->cost = (int16_t)cost;
  return t;
}

/* Mark the last step (none when p is full: then it is thrown away). */
static void rec_flag(steps *p, int flag){
  if( p->n>0 && p->n<=STEP_MAX ) p->a[p->n-1].flag |= (uint8_t)flag;
}

/* add() for a record of the character of info: the pair of classes
** priced later */
static step *rec_info(steps *p, uint32_t info){
  unsigned cls;
  int32_t own = utf8_model_own_info(&p->st, info, &cls);
  step *t = rec_step(p, p->st.cls, cls, own);
  p->st.cls = (uint16_t)cls;
  return t;
}

static step *rec_add(steps *p, uint32_t cp){
  return rec_info(p, utf8_model_info(cp));
}

/* ascii() for a record: its first character one step */
static void rec_ascii(steps *p, const value_view *v, size_t from,
                      size_t to, int bLetter){
  const unsigned char *s = v->s;
  if( from>0 ){
    step *t = rec_info(p, byte_info(v, s[from]));
    if( bLetter && !is_ascii_letter(s[from]) ) t->cost += utf8_model_latin(&p->st);
  }else if( bLetter ){
    p->st.script = UTF8_MODEL_SCRIPT_LATIN;
  }
  ascii_last(&p->st, v, from, to);
}

/* The tail at pos, after the last step: what price() adds when it stops
** there (its first ASCII character, or the end of the value), one step. */
static step rec_tail(const steps *p, const value_view *v, size_t pos){
  utf8_model_state st = p->st;           /* moved on here only */
  step x;
  unsigned cls = NO_PAIR;
  int32_t own = 0;
  if( pos>=v->n ){
    cls = utf8_model_sym_class[UTF8_MODEL_SYM_EDGE];
  }else if( pos>0 ){
    own = utf8_model_own_info(&st, byte_info(v, v->s[pos]), &cls);
    if( v->lastLetter>pos && !is_ascii_letter(v->s[pos]) ){
      own += utf8_model_latin(&st);
    }
  }
  x.from = p->st.cls;
  x.to = (uint16_t)cls;
  x.cost = (int16_t)own;
  x.flag = 0;
  return x;
}

/* One character of c at s[*pi..n) into p; 0 if price() must do it (c has
** no character there, or UTF-8 cut at the end, whose price depends on the
** language). */
static int rec_char(steps *p, const unsigned char *s, size_t *pi, size_t n,
                    int c, int32_t damage){
  uint32_t cp[2];
  size_t i = *pi;
  if( c<UTF8_CS_FIRST_MULTI ){
    cp[0] = utf8_cs_single[c][s[i]-0x80]; cp[1] = 0;
    i++;
  }else if( c==UTF8_GUESS_UTF8 ){
    utf8_unit u = utf8_decode_unit(s+i, n-i);
    int32_t x = 0;
    size_t k = u.reason==UTF8_OK ? 0 : utf8_variant(s+i, n-i, cp, &x);
    if( k ){                                        /* as price() */
      *pi = i+k;
      rec_step(p, 0, NO_PAIR, x);
      if( cp[0] ) rec_add(p, cp[0]);
      return 1;
    }
    i += u.length;
    if( u.reason!=UTF8_OK ){
      if( i==n && u.reason==UTF8_TRUNCATED ) return 0;
      rec_step(p, 0, NO_PAIR, damage);
      *pi = i;
      return 1;
    }
    cp[0] = u.codepoint; cp[1] = 0;
  }else{
    i += utf8_charset_step(s+i, n-i, (utf8_charset)c, cp);
  }
  if( cp[0]==0xFFFD ) return 0;
  rec_add(p, cp[0]);
  if( cp[1] ) rec_add(p, cp[1]);
  rec_flag(p, STEP_CHECK);
  *pi = i;
  return 1;
}

/*
** Record the value read as c, as price() walks it for a language: 1, or
** 0 when price() must price it (see rec_char(); or too long).
*/
static int record(const value_view *v, int c, steps *p){
  const unsigned char *s = v->s;
  size_t n = v->n, i = 0, pos = 0, end, w;
  int k = 0;
  p->n = 0;
  utf8_model_start(&p->st, -1);
  while( next_run(v, &k, &i, &end) ){
    for(w=i; w>pos && is_ascii_letter(s[w-1]); w--){}
    if( w>pos ) rec_ascii(p, v, pos, w, has_letter(s, pos, w));
    for(; w<i; w++) rec_info(p, v->aAscii[s[w]]);              /* letters */
    while( i<end ) if( !rec_char(p, s, &i, n, c, v->damage) || p->n>STEP_MAX ) return 0;
    while( i<n && is_ascii_letter(s[i]) ) rec_info(p, v->aAscii[s[i++]]);
    pos = i;
    if( p->n>=STEP_MAX ) return 0;
    rec_flag(p, STEP_RUN);
    p->aTail[p->n-1] = rec_tail(p, v, pos);
  }
  p->last = rec_tail(p, v, pos);
  return 1;
}

/* What language lang's model makes of the pair of classes of step t. */
static int32_t step_pair(const step *t, int lang){
  const uint8_t *loc = utf8_model_lang_local[lang];
  if( t->to==NO_PAIR ) return 0;
  return utf8_model_lang_bigram[lang][loc[t->from]*UTF8_MODEL_NLOCAL + loc[t->to]]
       + utf8_model_lang_extra[lang][t->to];
}

/* price() of the recorded reading in language lang, from cost (the prior). */
static int32_t steps_price(const steps *p, int lang, int32_t cost,
                           int32_t limit){
  const uint8_t *loc = utf8_model_lang_local[lang];
  const uint8_t *big = utf8_model_lang_bigram[lang];
  const uint8_t *extra = utf8_model_lang_extra[lang];
  int j;
  for(j=0; j<p->n; j++){
    const step *t = &p->a[j];
    cost += t->cost;
    if( t->to!=NO_PAIR ){
      cost += big[loc[t->from]*UTF8_MODEL_NLOCAL + loc[t->to]] + extra[t->to];
    }
    if( (t->flag!=0) & (cost>limit) ){     /* price() stops here (one branch) */
      if( t->flag & STEP_CHECK ) return cost;
      return cost + p->aTail[j].cost + step_pair(&p->aTail[j], lang);
    }
  }
  return cost + p->last.cost + step_pair(&p->last, lang);
}

/*
** word_cost()'s words recorded as steps, for steps_price() to price in
** each language: 0 if there are too many letters (then word_cost()).
*/
static int word_record(const value_view *v, steps *p){
  const unsigned char *s = v->s;
  int k;
  p->n = 0;
  for(k=0; k<v->nWord; k++){
    size_t a = v->aWordA[k], b = v->aWordB[k];
    utf8_model_start(&p->st, -1);
    p->st.script = UTF8_MODEL_SCRIPT_LATIN;
    if( a>0 ) utf8_model_set_info(&p->st, byte_info(v, s[a-1]));
    for(; a<b && p->n<=STEP_MAX; a++) rec_info(p, v->aAscii[s[a]]);
    if( b<v->n ) rec_info(p, byte_info(v, s[b]));
    else rec_step(p, p->st.cls, utf8_model_sym_class[UTF8_MODEL_SYM_EDGE], 0);
    if( p->n>STEP_MAX ) return 0;
  }
  return 1;
}

/*
** What one reading cost in one language, kept for a candidate that reads
** alike: the entries of one reading and language are chained, oldest
** first, and at most PRICED_MAX are kept in all.
*/
typedef struct priced { int32_t cost; uint8_t bExact; int8_t next; } priced;
#define PRICED_MAX 48

/* All that score_to() works out for a value. */
typedef struct guess_ctx {
  value_view view;
  int32_t *score;
  uint64_t *hash;
  int nRd;                              /* distinct single-byte readings */
  uint8_t aRdFirst[UTF8_GUESS_N];       /* the first candidate reading each */
  int8_t aSlot[UTF8_GUESS_N];           /* a candidate's reading, or -1 */
  int32_t aWord[UTF8_MODEL_NLANG];      /* word_cost() per language, or -1 */
  int nPriced;
  uint64_t mHead;                       /* the rows of aHead in use */
  int8_t aHead[UTF8_GUESS_N][UTF8_MODEL_NLANG];  /* first of a chain, -1 */
  priced aPriced[PRICED_MAX];
  int nByWord;                          /* sort_languages() */
  uint8_t aByWord[UTF8_MODEL_NLANG];
  steps rec, words;                     /* a survivor's reading; the words */
} guess_ctx;

/*
** The slot of single-byte candidate c's reading (-1 if it has no
** character for one of the value's bytes), and the first candidate of
** aOrder seen that reads alike (c when it is the first). Many charsets
** read a value alike (é is 0xE9 in most Latin ones): those are priced
** once. Two read it alike when they read each of its bytes >= 0x80 alike:
** when none is in the set of bytes they read apart.
*/
static int reading_slot(guess_ctx *g, int c, int *pFirst){
  const single_tables *t = g->view.pTab;
  const uint64_t *m = g->view.mHigh;
  int j;
  *pFirst = c;
  if( (m[0] & t->aNone[c][0]) | (m[1] & t->aNone[c][1]) ) return -1;
  for(j=0; j<g->nRd; j++){
    const uint64_t *x = t->aDiff[c][g->aRdFirst[j]];
    if( ((m[0] & x[0]) | (m[1] & x[1]))==0 ){
      *pFirst = g->aRdFirst[j];
      return j;
    }
  }
  g->aRdFirst[j] = (uint8_t)c;
  g->nRd++;
  return j;
}

/*
** Stage 1: every candidate by the pooled model, to keep the few worth a
** closer look: those within PRUNE of the cheapest. Every cost that can
** keep its candidate is exact; any other may be a figure above the limit
** (a walk cut short there, or a single-byte reading's lower bound), and
** survivors() rules it out. A candidate that reads the value as one
** priced before costs the same, but for its prior (when that one's cost
** is exact, or above the limit even at this one's prior). Returns the
** cheapest cost.
*/
static int32_t stage_pooled(guess_ctx *g){
  uint8_t aCut[UTF8_GUESS_N];           /* its cost may be a lower bound */
  int32_t bestCost = INT32_MAX;
  size_t k;
  for(k=0; k<sizeof(aOrder); k++){
    /* UTF-8 (aOrder's first) after the three likeliest single-byte
    ** charsets: its walk is the dearest, and their best cuts it short */
    int c = aOrder[k<3 ? k+1 : k==3 ? 0 : k], d = c;
    int32_t limit = bestCost==INT32_MAX ? INT32_MAX : bestCost + PRUNE;
    if( c<UTF8_CS_FIRST_MULTI ){
      g->aSlot[c] = (int8_t)reading_slot(g, c, &d);
      if( g->aSlot[c]<0 ) continue;
    }
    if( d!=c && (!aCut[d] || g->score[d]-aPrior[d]+aPrior[c]>limit) ){
      g->score[c] = g->score[d] - aPrior[d] + aPrior[c];
      g->hash[c] = g->hash[d];
    }else if( c<UTF8_CS_FIRST_MULTI ){
      int32_t lb = single_bound(&g->view, c);
      g->score[c] = lb>limit ? lb : price_single(&g->view, c, limit, &g->hash[c]);
    }else{
      g->score[c] = price(&g->view, c, -1, limit, &g->hash[c]);
    }
    aCut[c] = g->score[c]>limit;
    if( g->score[c]<bestCost ) bestCost = g->score[c];
  }
  return bestCost;
}

/*
** word_cost() of every language of mask m, into g->aWord: the words
** recorded once, then each step priced in all those languages in turn (the
** inner loop's length does not change, so its branch is predicted).
*/
static void words_all(guess_ctx *g, uint64_t m){
  const uint8_t *aLoc[UTF8_MODEL_NLANG], *aBig[UTF8_MODEL_NLANG];
  const uint8_t *aExtra[UTF8_MODEL_NLANG];
  int32_t aCost[UTF8_MODEL_NLANG], own = 0;
  uint8_t aL[UTF8_MODEL_NLANG];
  int nL = 0, lang, j, k;
  const steps *p = &g->words;
  for(lang=0; m; lang++, m>>=1) if( m & 1 ) aL[nL++] = (uint8_t)lang;
  if( g->view.nWord==0 || !word_record(&g->view, &g->words) ){
    for(k=0; k<nL; k++) g->aWord[aL[k]] = word_cost(&g->view, aL[k]);
    return;
  }
  for(j=0; j<p->n; j++) own += p->a[j].cost;   /* alike in every language */
  for(k=0; k<nL; k++){
    aLoc[k] = utf8_model_lang_local[aL[k]];
    aBig[k] = utf8_model_lang_bigram[aL[k]];
    aExtra[k] = utf8_model_lang_extra[aL[k]];
    aCost[k] = own;
  }
  for(j=0; j<p->n; j++){
    unsigned from = p->a[j].from, to = p->a[j].to;
    for(k=0; k<nL; k++){
      aCost[k] += aBig[k][aLoc[k][from]*UTF8_MODEL_NLOCAL + aLoc[k][to]]
                + aExtra[k][to];
    }
  }
  for(k=0; k<nL; k++) g->aWord[aL[k]] = aCost[k];
}

/*
** The languages of the survivors' charsets, those whose words the value's
** ASCII words suit best first (a tie: the lower index first), into
** g->aByWord: each survivor's languages in this order are a filter away.
*/
static void sort_languages(guess_ctx *g, const uint8_t *aLive, int nLive){
  uint64_t m = 0;
  uint64_t aKey[UTF8_MODEL_NLANG];
  int lang, j, n = 0;
  for(j=0; j<nLive; j++) m |= utf8_model_charset_langs[aLive[j]];
  words_all(g, m);
  for(lang=0; m; lang++, m>>=1){
    uint64_t key;
    if( (m & 1)==0 ) continue;
    key = (uint64_t)g->aWord[lang]<<6 | (uint64_t)lang;
    for(j=n; j>0 && aKey[j-1]>key; j--) aKey[j] = aKey[j-1];
    aKey[j] = key;
    n++;
  }
  for(j=0; j<n; j++) g->aByWord[j] = (uint8_t)(aKey[j] & 63);
  g->nByWord = n;
}

/* The languages of charset mask m in g->aByWord's order, into aLang;
** returns how many. */
static int languages(const guess_ctx *g, uint64_t m, uint8_t *aLang){
  int j, n = 0;
  for(j=0; j<g->nByWord; j++){            /* without a branch to mispredict */
    aLang[n] = g->aByWord[j];
    n += (int)(m>>g->aByWord[j] & 1);
  }
  return n;
}

/* A cost of c's reading in lang kept from a candidate that reads alike
** and good under limit, prior included; -1 if there is none. */
static int32_t priced_find(const guess_ctx *g, int c, int lang, int32_t limit){
  int slot = g->aSlot[c], j;
  if( slot<0 || (g->mHead>>slot & 1)==0 ) return -1;
  for(j=g->aHead[slot][lang]; j>=0; j=g->aPriced[j].next){
    const priced *p = &g->aPriced[j];
    if( p->bExact || p->cost+aPrior[c]>limit ) return p->cost + aPrior[c];
  }
  return -1;
}

/* Keep x, c's reading priced in lang under limit, for those that read alike. */
static void priced_add(guess_ctx *g, int c, int lang, int32_t x, int32_t limit){
  int slot = g->aSlot[c];
  int8_t *pj;
  priced *p;
  if( slot<0 || g->nPriced>=PRICED_MAX ) return;
  if( (g->mHead>>slot & 1)==0 ){
    memset(g->aHead[slot], -1, sizeof(g->aHead[slot]));
    g->mHead |= (uint64_t)1<<slot;
  }
  for(pj=&g->aHead[slot][lang]; *pj>=0; pj=&g->aPriced[*pj].next){}
  *pj = (int8_t)g->nPriced;
  p = &g->aPriced[g->nPriced++];
  p->cost = x - aPrior[c];
  p->bExact = x<=limit;
  p->next = -1;
}

/*
** Stage 2 for survivor c: its cost in the cheapest of its languages, the
** words included. A language stops early once it cannot beat both c's
** best so far and the best candidate's cost (bestCost) plus cap.
*/
static int32_t stage_lang(guess_ctx *g, int c, int32_t bestCost, int32_t cap,
                          int *pLang){
  uint8_t aLang[UTF8_MODEL_NLANG];
  int nLang = languages(g, utf8_model_charset_langs[c], aLang), i, bRec = -1;
  int32_t v = UTF8_GUESS_OUT;
  for(i=0; i<nLang; i++){
    int lang = aLang[i];
    int32_t limit = bestCost==INT32_MAX ? INT32_MAX : bestCost + cap, x;
    if( v<limit ) limit = v;
    /* the reading alone must stay under limit less the words' cost */
    if( limit!=INT32_MAX ) limit -= g->aWord[lang];
    x = priced_find(g, c, lang, limit);
    if( x<0 ){
      uint64_t h;
      if( bRec<0 ) bRec = record(&g->view, c, &g->rec);   /* once for all */
      x = bRec ? steps_price(&g->rec, lang, aPrior[c], limit)
               : price(&g->view, c, lang, limit, &h);
      priced_add(g, c, lang, x, limit);
    }
    if( x==UTF8_GUESS_OUT ) break;          /* the charset cannot read it */
    x += g->aWord[lang];
    if( x<v ){
      v = x;
      if( pLang ) *pLang = lang;
    }
  }
  return v;
}

/* The candidates within cut of the cheapest, cheapest first (a tie keeps
** aOrder's order), into aLive; the others are out. Returns how many. */
static int survivors(guess_ctx *g, int32_t cut, uint8_t *aLive){
  int nLive = 0, j;
  size_t k;
  for(k=0; k<sizeof(aOrder); k++){
    int c = aOrder[k];
    if( g->score[c]==UTF8_GUESS_OUT || g->score[c]>cut ){
      g->score[c] = UTF8_GUESS_OUT;
      continue;
    }
    for(j=nLive; j>0 && g->score[aLive[j-1]]>g->score[c]; j--) aLive[j] = aLive[j-1];
    aLive[j] = (uint8_t)c;
    nLive++;
  }
  return nLive;
}

/* Start g on s[0..n), its figures into score and hash. */
static void ctx_init(guess_ctx *g, const unsigned char *s, size_t n,
                     int32_t score[UTF8_GUESS_N], uint64_t hash[UTF8_GUESS_N]){
  int k;
  g->view.pTab = single_tables_get();
  g->view.aAscii = g->view.pTab->aAscii;
  view_init(&g->view, s, n);
  g->score = score;
  g->hash = hash;
  g->nRd = g->nPriced = 0;
  g->mHead = 0;
  for(k=0; k<UTF8_GUESS_N; k++){
    score[k] = UTF8_GUESS_OUT;
    hash[k] = 0;
    g->aSlot[k] = -1;
  }
  for(k=0; k<UTF8_MODEL_NLANG; k++) g->aWord[k] = -1;
}

/*
** utf8_guess_score(), each cost exact up to cap above the cheapest (past
** it, a cost may be any figure above that: the reading was cut short).
** (A cost cut short at a limit is a lower bound, and the limits only
** fall, so it stays above the limit of a later one.)
*/
static int score_to(const unsigned char *s, size_t n, int32_t cap,
                    int32_t score[UTF8_GUESS_N], uint64_t hash[UTF8_GUESS_N]){
  guess_ctx g;
  uint8_t aLive[UTF8_GUESS_N];
  int best = UTF8_GUESS_UTF8, nLive, k;
  int32_t bestCost;
  if( n>GUESS_MAX_BYTES ){
    /* the window holds the first ill-formed unit, begins after an ASCII
    ** byte and ends on one where it can, so that no character is cut */
    size_t e = utf8_find_error(s, n), a = e>1024 ? e-1024 : 0, m;
    while( a>0 && a<e && s[a-1]>=0x80 ) a++;
    s += a;
    n -= a;
    if( n>GUESS_MAX_BYTES ){
      m = GUESS_MAX_BYTES;
      while( m>GUESS_MAX_BYTES-64 && s[m-1]>=0x80 ) m--;
      n = s[m-1]<0x80 ? m : GUESS_MAX_BYTES;
    }
  }
  ctx_init(&g, s, n, score, hash);
  bestCost = stage_pooled(&g);
  nLive = survivors(&g, bestCost==INT32_MAX ? INT32_MAX : bestCost + PRUNE, aLive);
  if( cap==UTF8_GUESS_MARGIN && nLive>0 ){
    /* only the pick is asked for (utf8_guess): when every survivor reads
    ** the value alike, the languages cannot change it (utf8_guess_pick
    ** names the likeliest of those that read it alike, and no other is
    ** left to come within the margin), so they are not priced: the case
    ** of half the values of make guess-bench */
    for(k=1; k<nLive && hash[aLive[k]]==hash[aLive[0]]; k++){}
    if( k==nLive ) return aLive[0];
  }
  /* the survivors, cheapest first: the best found early cuts the others
  ** short */
  sort_languages(&g, aLive, nLive);
  bestCost = INT32_MAX;
  for(k=0; k<nLive; k++){
    int c = aLive[k];
    score[c] = stage_lang(&g, c, bestCost, cap, 0);
    if( score[c]<bestCost ){ bestCost = score[c]; best = c; }
  }
  return best;
}

/*
** What the model says UTF-8 s[0..n) costs (without UTF-8's prior): in
** the language that suits it best when lang is -1 (that language into
** *pLang when pLang is not NULL), else in lang alone. Only its first 64
** KiB are read.
*/
static int32_t text_cost(const unsigned char *s, size_t n, int lang,
                         int *pLang){
  guess_ctx g;
  int32_t score[UTF8_GUESS_N], x;
  uint64_t hash[UTF8_GUESS_N];
  uint8_t live = UTF8_GUESS_UTF8;
  if( n>GUESS_MAX_BYTES ){                 /* its start, on a character */
    n = GUESS_MAX_BYTES;
    while( n>0 && (s[n]&0xC0)==0x80 ) n--;
  }
  ctx_init(&g, s, n, score, hash);
  sort_languages(&g, &live, 1);
  if( lang>=0 ){
    g.aByWord[0] = (uint8_t)lang;
    g.nByWord = 1;
  }
  x = stage_lang(&g, UTF8_GUESS_UTF8, INT32_MAX, 0, pLang);
  return x==UTF8_GUESS_OUT ? x : x - aPrior[UTF8_GUESS_UTF8];
}

int32_t utf8_guess_text_cost(const unsigned char *s, size_t n){
  return text_cost(s, n, -1, 0);
}

int utf8_guess_text_cheaper(const unsigned char *a, size_t na,
                            const unsigned char *b, size_t nb, int32_t margin){
  int la = 0, lb = 0;
  int32_t aBest = text_cost(a, na, -1, &la), bBest = text_cost(b, nb, -1, &lb);
  int32_t aInB, bInA;
  if( aBest==UTF8_GUESS_OUT ) return 0;
  /* in a's language: b can cost no less there than its best */
  if( bBest!=UTF8_GUESS_OUT && (int64_t)aBest + margin >= bBest && la!=lb ){
    bInA = text_cost(b, nb, la, 0);
    if( (int64_t)aBest + margin >= bInA ) return 0;
  }else if( (int64_t)aBest + margin >= bBest ){
    return 0;
  }
  /* in b's language */
  aInB = la==lb ? aBest : text_cost(a, na, lb, 0);
  return aInB!=UTF8_GUESS_OUT && (int64_t)aInB + margin < bBest;
}

int utf8_guess_pick(const int32_t score[UTF8_GUESS_N],
                    const uint64_t hash[UTF8_GUESS_N]){
  int c, best = -1;
  size_t k;
  int32_t runner = UTF8_GUESS_OUT;
  for(k=0; k<sizeof(aOrder); k++){     /* a tie goes to the likelier */
    c = aOrder[k];
    if( score[c]!=UTF8_GUESS_OUT && (best<0 || score[c]<score[best]) ) best = c;
  }
  if( best<0 ) return UTF8_GUESS_NONE;
  for(c=0; c<UTF8_GUESS_N; c++){
    if( c!=best && score[c]<runner && hash[c]!=hash[best] ) runner = score[c];
  }
  if( runner!=UTF8_GUESS_OUT && runner-score[best]<UTF8_GUESS_MARGIN ){
    return UTF8_GUESS_NONE;
  }
  /* of the charsets that read the value exactly alike, name the one met
  ** most often (windows-1252 for "München", though the Turkish model may
  ** like its windows-1254 reading, the same text, a little better) */
  for(k=0; k<sizeof(aOrder); k++){
    c = aOrder[k];
    if( score[c]!=UTF8_GUESS_OUT && hash[c]==hash[best] ) return c;
  }
  return best;
}

int utf8_guess_score(const unsigned char *s, size_t n,
                     int32_t score[UTF8_GUESS_N], uint64_t hash[UTF8_GUESS_N]){
  return score_to(s, n, UTF8_GUESS_CAP, score, hash);
}

int utf8_guess(const unsigned char *s, size_t n){
  int32_t score[UTF8_GUESS_N];
  uint64_t hash[UTF8_GUESS_N];
  if( utf8_is_valid(s, n) ) return UTF8_GUESS_UTF8;
  /* the pick needs costs exact only up to the margin */
  score_to(s, n, UTF8_GUESS_MARGIN, score, hash);
  return utf8_guess_pick(score, hash);
}

const char *utf8_guess_name(int guess){
  if( guess==UTF8_GUESS_UTF8 ) return "utf-8";
  if( guess<0 || guess>UTF8_GUESS_UTF8 ) return 0;
  return utf8_charset_name((utf8_charset)guess);
}

void utf8_guess_group_init(utf8_guess_group *g){
  memset(g, 0, sizeof(*g));
}

/*
** A group adds each value's costs without the priors (a charset's prior is
** counted once for the group, not once per value: twenty Greek values
** that read alike in windows-1253 and ISO-8859-7 but one are not twenty
** reasons for windows-1253).
*/
void utf8_guess_group_add(utf8_guess_group *g, const int32_t score[UTF8_GUESS_N],
                          const uint64_t hash[UTF8_GUESS_N]){
  int c, d;
  int32_t best = UTF8_GUESS_OUT;
  for(c=0; c<UTF8_GUESS_N; c++){
    if( score[c]!=UTF8_GUESS_OUT && score[c]-aPrior[c]<best ) best = score[c]-aPrior[c];
  }
  if( best==UTF8_GUESS_OUT ) return;
  for(c=0; c<UTF8_GUESS_N; c++){
    int64_t e = score[c]==UTF8_GUESS_OUT ? UTF8_GUESS_CAP
              : (int64_t)score[c]-aPrior[c]-best;
    g->total[c] += e<UTF8_GUESS_CAP ? e : UTF8_GUESS_CAP;
  }
  for(c=0; c<UTF8_GUESS_N; c++){
    uint64_t m = 0;
    if( score[c]!=UTF8_GUESS_OUT ){
      for(d=0; d<UTF8_GUESS_N; d++){
        if( score[d]!=UTF8_GUESS_OUT && hash[d]==hash[c] ) m |= (uint64_t)1<<d;
      }
    }
    g->same[c] = g->nValue ? g->same[c] & m : m;   /* a zeroed group works too */
  }
  c = utf8_guess_pick(score, hash);
  if( c!=UTF8_GUESS_NONE ) g->nPick[c]++;
  g->nValue++;
}

/* log2(a/b) in quarter bits (the model's unit), a >= b > 0, rounded
** down: whole bits by halving, the quarter by 2^(1/4), 2^(1/2), 2^(3/4). */
typedef char guess_quarter_bits[UTF8_MODEL_QUANT==4 ? 1 : -1];
static int32_t log2_quarters(double a, double b){
  int32_t q = 0;
  double x = a/b;
  while( x>=2.0 ){ x /= 2.0; q += 4; }
  return q + (x>=1.189207115) + (x>=1.414213562) + (x>=1.681792831);
}

int utf8_guess_group_choose(const utf8_guess_group *g,
                            const int32_t score[UTF8_GUESS_N],
                            const uint64_t hash[UTF8_GUESS_N]){
  int c, d, best = UTF8_GUESS_NONE, own;
  int64_t bestCost = 0;
  int32_t cheapest = UTF8_GUESS_OUT;
  uint64_t m = 0;
  size_t k;
  for(c=0; c<UTF8_GUESS_N; c++) if( score[c]<cheapest ) cheapest = score[c];
  /* the readings priced exactly (utf8_guess_score(): up to the cap) */
  for(c=0; c<UTF8_GUESS_N; c++){
    if( score[c]!=UTF8_GUESS_OUT && score[c]-cheapest<UTF8_GUESS_CAP ) m |= (uint64_t)1<<c;
  }
  if( g->nValue==0 || m==0 ) return UTF8_GUESS_NONE;
  for(k=0; k<sizeof(aOrder); k++){        /* a tie goes to the likelier */
    int64_t v;
    int32_t cost;
    uint64_t nPick = 0;
    c = aOrder[k];
    if( (m>>c & 1)==0 ) continue;
    /* a text is a text: what it costs at its cheapest, and how often the
    ** column's values were read so, whichever charset it was named by
    ** (KOI8-R and KOI8-U read most Russian alike; utf8_guess names
    ** KOI8-R, and the Ukrainian model may price it cheaper) */
    cost = score[c];
    for(d=0; d<UTF8_GUESS_N; d++){
      if( (m>>d & 1) && hash[d]==hash[c] ){
        if( score[d]<cost ) cost = score[d];
        nPick += g->nPick[d];
      }
    }
    v = (int64_t)cost + log2_quarters((double)(g->nValue + UTF8_GUESS_N),
                                      (double)(nPick + 1));
    if( best==UTF8_GUESS_NONE || v<bestCost ){ best = c; bestCost = v; }
  }
  own = utf8_guess_pick(score, hash);
  if( own!=UTF8_GUESS_NONE && hash[own]==hash[best] ) return own;
  return best;
}

int utf8_guess_group_pick(const utf8_guess_group *g){
  int c, best = -1;
  size_t k;
  if( g->nValue==0 ) return UTF8_GUESS_NONE;
  for(k=0; k<sizeof(aOrder); k++){
    c = aOrder[k];
    if( best<0 || g->total[c]+aPrior[c]<g->total[best]+aPrior[best] ) best = c;
  }
  /* of the charsets that read every value exactly alike, the likeliest */
  for(k=0; k<sizeof(aOrder); k++){
    c = aOrder[k];
    if( g->same[best] & ((uint64_t)1<<c) ) return c;
  }
  return best;
}

int utf8_guess_group_rank(const utf8_guess_group *g, uint8_t order[UTF8_GUESS_N]){
  size_t k;
  int n = 0, j;
  if( g->nValue==0 ) return 0;
  for(k=0; k<sizeof(aOrder); k++){          /* insertion: ties keep aOrder */
    int c = aOrder[k];
    int64_t v = g->total[c]+aPrior[c];
    for(j=n; j>0 && g->total[order[j-1]]+aPrior[order[j-1]]>v; j--){
      order[j] = order[j-1];
    }
    order[j] = (uint8_t)c;
    n++;
  }
  return n;
}

int utf8_guess_plausible(const int32_t score[UTF8_GUESS_N], int cs){
  if( cs<0 || cs>=UTF8_GUESS_N ) return 0;
  return (int)(utf8_guess_plausible_set(score)>>cs & 1);
}

/* one bit per charset */
typedef char guess_set_fits[UTF8_GUESS_N<=64 ? 1 : -1];

uint64_t utf8_guess_plausible_set(const int32_t score[UTF8_GUESS_N]){
  uint64_t m = 0;
  int c;
  int32_t best = UTF8_GUESS_OUT;
  for(c=0; c<UTF8_GUESS_N; c++) if( score[c]<best ) best = score[c];
  if( best==UTF8_GUESS_OUT ) return 0;
  for(c=0; c<UTF8_GUESS_N; c++){
    if( score[c]!=UTF8_GUESS_OUT && score[c]-best<UTF8_GUESS_MARGIN ) m |= (uint64_t)1<<c;
  }
  return m;
}
