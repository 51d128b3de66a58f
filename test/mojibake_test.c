/*
** test/mojibake_test.c - the differential test of core/mojibake.c.
**
** Text T is generated, encoded as UTF-8, decoded as charset C (all 256
** bytes are defined in both: cp1252 with WHATWG's five pass-through C1
** controls, latin1) and encoded as UTF-8 again: that is mojibake M, made
** by a second, independent implementation of the charsets (the tables
** below, not the engine's). Then, for each T:
**
**   - unmojibake(T) must leave T alone (a change is a false positive);
**   - unmojibake(M) must give T back, with chain "C";
**   - unmojibake(misread twice) must give T back, with chain "C,C".
**
** Two generators. "ordinary": words as the languages write them (French,
** German, Portuguese, Czech, Turkish, Greek, Russian, Hebrew, CJK, emoji,
** punctuation between), where every count must be 0. "random": random code
** points from Latin-1 Supplement, Latin Extended-A, general punctuation,
** Greek, Cyrillic, CJK and emoji, in tokens among ASCII words. Random text
** can look like mojibake itself ("Ã" then "©"), or hold a misreading that
** shows once the value is known misread ("Ä‚”" is Ô misread twice as
** cp1250, so T misread once is undone three deep: holds_misreading());
** such T are counted and left out of its round trips, which must then all
** succeed.
**
** cp1250 and MacRoman may undo a value in part (only the runs the engine
** is sure of; counted), but in ordinary text a Greek word (two letters at
** least) left misread beside the fixed runs is a failure: rule 9's
** rescue takes them all. "science": Russian with Greek letters alone
** among its words ("α-частицы", "10 μm"), cp1251 round trips exact.
**
** "settled": values made of pieces of the generators' text, each piece
** left as it is or misread once or twice by its own charset (a value
** misread two ways, as when fields from two sources are joined). Whatever
** unmojibake makes of one must be a value it then leaves alone (a second
** utf8_repair changes nothing), unless it stopped at UTF8_MOJI_MAX_DEPTH.
**
** Each generator prints its exact round trips, and fails when it leaves
** more alone, or undoes more in part by one charset, than its ceiling
** (ceil_ordinary ...: per 10,000 round trips, what the engine reaches
** and a quarter more), so that a change that loses round trips fails.
**
** MOJI_SHOW_PARTIAL=1 and MOJI_SHOW_UNSURE=1 print each partial and each
** not-confident case (T, the input, the result).
**
** Last line: "mojibake: N passed, N failed". A number argument scales the
** iterations (--quick is 1/10).
*/
#include "mojibake.h"
#include "impl.h"
#include "utf8.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int n_pass, n_fail;

static uint64_t rng = 0x9E3779B97F4A7C15ull;
static uint32_t rnd(uint32_t k){            /* 0..k-1 */
  rng ^= rng<<13; rng ^= rng>>7; rng ^= rng<<17;
  return (uint32_t)(rng % k);
}

/* ---- text building ---- */
typedef struct buf { unsigned char *z; size_t n, cap; } buf;
static void put(buf *b, const void *z, size_t n){
  if( b->n+n+8>b->cap ){
    b->cap = (b->n+n+8)*2;
    b->z = realloc(b->z, b->cap);
    if( !b->z ){ perror("realloc"); exit(2); }
  }
  memcpy(b->z+b->n, z, n);
  b->n += n;
}
static void put_cp(buf *b, uint32_t cp){
  unsigned char e[4];
  put(b, e, utf8_encode_scalar(cp, e));
}
static void put_s(buf *b, const char *z){ put(b, z, strlen(z)); }
/* One character (UTF-8) of the string set z, at random. */
static void put_one_of(buf *b, const char *z){
  uint32_t cps[128];
  int n = 0;
  size_t i = 0, len = strlen(z);
  while( i<len ){
    utf8_unit u = utf8_decode_unit((const unsigned char*)z+i, len-i);
    cps[n++] = u.codepoint;
    i += u.length;
  }
  put_cp(b, cps[rnd((uint32_t)n)]);
}

/* ---- the charsets, independently of core/ ---- */
static const uint16_t w1252[32] = {
  0x20AC,0x81,0x201A,0x192,0x201E,0x2026,0x2020,0x2021,0x2C6,0x2030,0x160,
  0x2039,0x152,0x8D,0x17D,0x8F,0x90,0x2018,0x2019,0x201C,0x201D,0x2022,0x2013,
  0x2014,0x2DC,0x2122,0x161,0x203A,0x153,0x9D,0x17E,0x178 };
/* Windows-1251 80-BF (WHATWG; 98 is U+0098); C0-FF are U+0410..U+044F. */
static const uint16_t w1251[64] = {
  0x402,0x403,0x201A,0x453,0x201E,0x2026,0x2020,0x2021,0x20AC,0x2030,0x409,
  0x2039,0x40A,0x40C,0x40B,0x40F,0x452,0x2018,0x2019,0x201C,0x201D,0x2022,
  0x2013,0x2014,0x98,0x2122,0x459,0x203A,0x45A,0x45C,0x45B,0x45F,0xA0,0x40E,
  0x45E,0x408,0xA4,0x490,0xA6,0xA7,0x401,0xA9,0x404,0xAB,0xAC,0xAD,0xAE,0x407,
  0xB0,0xB1,0x406,0x456,0x491,0xB5,0xB6,0xB7,0x451,0x2116,0x454,0xBB,0x458,
  0x405,0x455,0x457 };
/* Mac OS Roman and Windows-1250 bytes 80-FF as strings of their 128
** characters (written from Python's codecs mac_roman and cp1250, the
** undefined 81 83 88 90 98 of cp1250 as their C1 controls, as WHATWG). */
static const char mac_roman[] =
  "ÄÅÇÉÑÖÜáàâäãåçéèêëíìîïñóòôöõúùûü†°¢£§•¶ß®©™´¨≠ÆØ∞±≤≥¥µ∂∑∏π"
  "∫ªºΩæø¿¡¬√ƒ≈∆«»…\xC2\xA0ÀÃÕŒœ–—“”‘’÷◊ÿŸ⁄€‹›ﬁﬂ‡·‚„‰ÂÊÁËÈÍÎÏ"
  "ÌÓÔ\xEF\xA3\xBFÒÚÛÙıˆ˜¯˘˙˚¸˝˛ˇ";
static const char win1250[] =
  "€\xC2\x81‚\xC2\x83„…†‡\xC2\x88‰Š‹ŚŤŽŹ\xC2\x90‘’“”•–—\xC2\x98"
  "™š›śťžź\xC2\xA0ˇ˘Ł¤Ą¦§¨©Ş«¬\xC2\xAD®Ż°±˛ł´µ¶·¸ąş»Ľ˝ľżŔÁÂĂÄ"
  "ĹĆÇČÉĘËĚÍÎĎĐŃŇÓÔŐÖ×ŘŮÚŰÜÝŢßŕáâăäĺćçčéęëěíîďđńňóôőö÷řůúűüýţ"
  "˙";
static uint32_t table_cp[2][128];
static void load_tables(void){
  const char *z[2] = { mac_roman, win1250 };
  int t, k;
  for(t=0; t<2; t++){
    size_t i = 0, len = strlen(z[t]);
    for(k=0; k<128; k++){
      utf8_unit u = utf8_decode_unit((const unsigned char*)z[t]+i, len-i);
      table_cp[t][k] = u.codepoint;
      i += u.length;
    }
    if( i!=len ){ printf("bad table %d\n", t); exit(2); }
  }
}
static void misread(const buf *in, buf *out, utf8_moji_charset cs){
  size_t i;
  out->n = 0;
  for(i=0; i<in->n; i++){
    unsigned b = in->z[i];
    if( (cs==UTF8_MOJI_MACROMAN || cs==UTF8_MOJI_CP1250) && b>=0x80 ){
      put_cp(out, table_cp[cs==UTF8_MOJI_CP1250][b-0x80]);
      continue;
    }
    if( cs==UTF8_MOJI_CP1251 && b>=0x80 ){
      put_cp(out, b>=0xC0 ? 0x410+(b-0xC0) : w1251[b-0x80]);
      continue;
    }
    put_cp(out, (cs==UTF8_MOJI_CP1252 && b>=0x80 && b<0xA0) ? w1252[b-0x80] : b);
  }
}

/* ---- generators ---- */
static const char *const alphabets[] = {
  "éèêëàâçîïôûùüÿœæ",            /* French */
  "äöüß",                         /* German */
  "ãõáéíóúâêôçà",                 /* Portuguese */
  "áčďéěíňóřšťúůýž",              /* Czech */
  "çğıöşü",                       /* Turkish */
};
static const char *const capitals[] = {
  "ÉÈÊÀÂÇÎÔÛ", "ÄÖÜ", "ÃÕÁÉÍÓÚÂÊÔÇ", "ÁČĎÉĚÍŇÓŘŠŤÚŮÝŽ", "ÇĞİÖŞÜ" };
static void ascii_word(buf *b, int len){
  while( len-- ) put_cp(b, 'a'+rnd(26));
}
/* A word of language lang: ASCII letters, one in three accented. */
static void latin_word(buf *b, int lang, int caps){
  int len = 2+rnd(8), i;
  for(i=0; i<len; i++){
    if( rnd(3)==0 && !(caps && lang!=2 && lang!=3) ){
      if( caps && i==len-1 && lang==2 ) put_s(b, "Ã");  /* no word ends in Â */
      else if( caps || (i==0 && rnd(4)==0) ) put_one_of(b, capitals[lang]);
      else put_one_of(b, alphabets[lang]);
    }else if( caps || (i==0 && rnd(4)==0) ){
      put_cp(b, 'A'+rnd(26));
    }else{
      put_cp(b, 'a'+rnd(26));
    }
  }
}
static void script_word(buf *b, uint32_t lo, uint32_t hi, int minlen){
  int len = minlen+rnd(7), i;
  for(i=0; i<len; i++) put_cp(b, lo+rnd(hi-lo+1));
}
static void ordinary_text(buf *b){
  int words = 3+rnd(12), w;
  static const char *const after[] = { "", "", "", ",", ".", "…", "»", "”",
                                       "’s", ":", " —", " –", "!", "?" };
  b->n = 0;
  for(w=0; w<words; w++){
    int kind = rnd(12);
    if( w ) put_s(b, rnd(10)==0 ? "\xC2\xA0" : " ");
    if( rnd(12)==0 ) put_s(b, rnd(2) ? "«" : "“");
    switch( kind ){
      case 0: case 1: ascii_word(b, 1+rnd(9)); break;
      case 2: case 3: case 4: latin_word(b, rnd(5), 0); break;
      case 5: latin_word(b, rnd(5), 1); break;
      case 6: script_word(b, 0x3B1, 0x3C9, 2); break;            /* Greek */
      case 7: script_word(b, 0x430, 0x44F, 2); break;            /* Russian */
      case 8: script_word(b, 0x5D0, 0x5EA, 2); break;            /* Hebrew */
      case 9: script_word(b, 0x4E00, 0x9FFF, 1); break;          /* CJK */
      case 10: put_cp(b, 0x1F600+rnd(0x50)); break;              /* emoji */
      default: put_s(b, rnd(2) ? "5 €" : "10 °C"); break;
    }
    put_s(b, after[rnd(sizeof(after)/sizeof(after[0]))]);
  }
}
/* Latin-script prose only (French, German, Portuguese, Czech, Turkish
** words, ASCII words, the punctuation of ordinary_text()): what cp1250
** and MacRoman readings are mostly made of. No change to T; misreadings
** back whole or, for cp1250 and MacRoman, in part (counted: a capital
** then Ă, Ä or Ĺ and a capital, as in "RĂŤQ", is not sure, Romanian
** "PĂŞUNE" looks the same). */
static void latin_text(buf *b){
  int words = 2+rnd(12), w;
  static const char *const after[] = { "", "", "", ",", ".", "…", "»", "”",
                                       "’s", ":", " —", " –", "!", "?" };
  b->n = 0;
  for(w=0; w<words; w++){
    if( w ) put_s(b, " ");
    if( rnd(12)==0 ) put_s(b, rnd(2) ? "«" : "“");
    if( rnd(3)==0 ) ascii_word(b, 1+rnd(9));
    else latin_word(b, rnd(5), rnd(6)==0);
    put_s(b, after[rnd(sizeof(after)/sizeof(after[0]))]);
  }
}

/* Russian only: words, spaces and ASCII punctuation (cp1251 mojibake of
** it must come back whole). */
static void russian_text(buf *b){
  int words = 2+rnd(12), w;
  b->n = 0;
  for(w=0; w<words; w++){
    if( w ) put_s(b, rnd(6)==0 ? ", " : " ");
    if( rnd(8)==0 ) put_cp(b, 0x410+rnd(32));             /* a capital */
    script_word(b, 0x430, 0x44F, 1);
    if( rnd(10)==0 ) put_cp(b, 0x451);                   /* ё */
  }
  put_s(b, ".");
}

/* Russian with the Greek letters science writes among its words: a word
** of its own, glued by a hyphen ("α-частицы"), before a unit after a
** number ("10 μm"), in an equation ("λ = 550 нм"), glued to a Latin
** letter ("ΔT"), in parentheses. Not Π or υ: misread, "О" + NBSP and
** "О…" are the preposition о bound to its word and an exclamation; μ
** only glued to its unit ("Ој" alone is Serbian's oj), no Σ ("ОЈ"); and
** before a capital, not those whose misreading is О then a twin of a
** Latin letter ("ОІT" could be Latin typed with look-alikes). */
static void science_text(buf *b){
  static const char greek[] = "αβγδεζηθικλνξοπρστφχψωΓΔΘΛΞΦΨΩ";
  static const char before_capital[] = "αδεζηικλπρστφχψωΓΔΘΛΞΦΩ";
  int words = 2+rnd(10), w, at = rnd((uint32_t)words);
  b->n = 0;
  for(w=0; w<words; w++){
    if( w ) put_s(b, rnd(6)==0 ? ", " : " ");
    if( w==at ){
      switch( rnd(6) ){
        case 0: put_one_of(b, greek); break;
        case 1: put_one_of(b, greek); put_s(b, "-"); script_word(b, 0x430, 0x44F, 2); break;
        case 2: put_s(b, "10 "); put_one_of(b, rnd(3) ? greek : "μ"); put_s(b, "m"); break;
        case 3: put_one_of(b, greek); put_s(b, " = 550 нм"); break;
        case 4: put_one_of(b, before_capital); put_cp(b, 'A'+rnd(26)); break;
        default: put_s(b, "("); put_one_of(b, greek); put_s(b, ")"); break;
      }
      continue;
    }
    script_word(b, 0x430, 0x44F, 1);
  }
  put_s(b, ".");
}

/* A random code point of the blocks the brief names. */
static uint32_t random_cp(void){
  switch( rnd(8) ){
    case 0: return 0xA0+rnd(0x60);          /* Latin-1 Supplement */
    case 1: return 0x100+rnd(0x80);         /* Latin Extended-A */
    case 2: return 0x2010+rnd(0x18);        /* general punctuation */
    case 3: return 0x391+rnd(0x38);         /* Greek */
    case 4: return 0x410+rnd(0x40);         /* Cyrillic */
    case 5: return 0x4E00+rnd(0x5200);      /* CJK */
    case 6: return 0x1F300+rnd(0x300);      /* emoji */
    default: return 'a'+rnd(26);
  }
}
static void random_text(buf *b){
  int words = 2+rnd(10), w, k;
  b->n = 0;
  for(w=0; w<words; w++){
    if( w ) put_s(b, " ");
    if( rnd(2) ) ascii_word(b, 1+rnd(8));
    else for(k=1+rnd(4); k>0; k--) put_cp(b, random_cp());
  }
}

/* ---- checks ---- */
static unsigned char *outbuf;
static size_t outcap;
/* unmojibake(s) as a string; depth into *pd, chain into ch. */
static int unmoji(const buf *s, size_t *plen, utf8_moji_charset *ch){
  int d;
  if( s->n+1>outcap ){
    outcap = 2*(s->n+1);
    outbuf = realloc(outbuf, outcap);
  }
  d = utf8_unmojibake(s->z, s->n, outbuf, plen, ch);
  if( d==0 ){ memcpy(outbuf, s->z, s->n); *plen = s->n; }
  return d;
}
static int same(const buf *t, size_t len){
  return len==t->n && memcmp(outbuf, t->z, len)==0;
}
static void show(const char *what, const buf *t){
  static int shown;
  if( shown++<8 || getenv("MOJI_DEBUG") ) printf("  %s: %.*s\n", what, (int)t->n, t->z);
}

/* The name the engine gives misreading cs of text t: latin1 only when t's
** UTF-8 has a byte 80-9F that cp1252 reads as something else. */
static utf8_moji_charset expect_cs(const buf *t, utf8_moji_charset cs){
  size_t i;
  if( cs!=UTF8_MOJI_LATIN1 ) return cs;
  for(i=0; i<t->n; i++){
    unsigned b = t->z[i];
    if( b>=0x80 && b<0xA0 && b!=0x81 && b!=0x8D && b!=0x8F && b!=0x90 && b!=0x9D ) return cs;
  }
  return UTF8_MOJI_CP1252;
}

typedef struct counts {
  long values, changed, roundtrips, rt_fail, self_looking, unsure, exact;
  long partial[UTF8_MOJI_COUNT];
  long other;               /* read, in random text, as another charset */
} counts;

/* The chain ch[0..d) explains in: misreading t by ch[d-1], then ch[d-2]
** ..., gives in again (cp1252 and cp1250 share most of their bytes, so
** a value may be named by either). */
static int explains(const buf *t, const utf8_moji_charset *ch, int d, const buf *in){
  buf a = {0}, b = {0};
  int k, ok;
  put(&a, t->z, t->n);
  for(k=d-1; k>=0; k--){
    misread(&a, &b, ch[k]);
    a.n = 0;
    put(&a, b.z, b.n);
  }
  ok = a.n==in->n && memcmp(a.z, in->z, a.n)==0;
  free(a.z); free(b.z);
  return ok;
}

/* outbuf[0..len) is t where each character is either itself or its
** misreading by cs, 1..depth times (a partial repair, nothing wrong).
** Backtracks: "‚" is also the start of its own misreading "‚Äö"; the
** positions (i in t, r in outbuf) already found to lead nowhere are
** remembered in dead[], so a wrong result costs t->n * len steps at most,
** not a number of them exponential in its length.
** *greek is set when a Greek letter of t is among those left misread.
*/
static int is_greek(uint32_t c){ return c>=0x370 && c<=0x3FF; }
/* Is t's character at i a Greek letter of a word of two at least? (One
** alone is a symbol, "λ = 550 nm", which cp1250 and MacRoman may leave.) */
static int greek_word_at(const buf *t, size_t i){
  utf8_unit u = utf8_decode_unit(t->z+i, t->n-i);
  size_t k;
  if( !is_greek(u.codepoint) ) return 0;
  k = i+u.length;
  if( k<t->n && is_greek(utf8_decode_unit(t->z+k, t->n-k).codepoint) ) return 1;
  if( i==0 ) return 0;
  for(k=i-1; k>0 && (t->z[k]&0xC0)==0x80; k--){}     /* the character before */
  return is_greek(utf8_decode_unit(t->z+k, t->n-k).codepoint);
}
static unsigned char *dead;
static int consistent_at(const buf *t, size_t i, utf8_moji_charset cs,
                         int depth, size_t r, size_t len, int *greek){
  buf a = {0}, b = {0};
  utf8_unit u;
  size_t at = i*(len+1) + r;
  int lv, ok = 0;
  if( i==t->n ) return r==len;
  if( dead[at/8] & (1<<(at%8)) ) return 0;
  u = utf8_decode_unit(t->z+i, t->n-i);
  put(&a, t->z+i, u.length);
  for(lv=0; lv<=depth && !ok; lv++){
    if( lv ){ misread(&a, &b, cs); a.n = 0; put(&a, b.z, b.n); }
    if( r+a.n<=len && memcmp(outbuf+r, a.z, a.n)==0 ){
      ok = consistent_at(t, i+u.length, cs, depth, r+a.n, len, greek);
      if( ok && lv && greek_word_at(t, i) ) *greek = 1;
    }
  }
  if( !ok ) dead[at/8] |= (unsigned char)(1<<(at%8));
  free(a.z); free(b.z);
  return ok;
}
static int consistent(const buf *t, utf8_moji_charset cs, int depth, size_t len,
                      int *greek){
  size_t bits = (t->n+1)*(len+1);
  int ok;
  *greek = 0;
  dead = calloc(bits/8+1, 1);
  if( !dead ){ perror("calloc"); exit(1); }
  ok = consistent_at(t, 0, cs, depth, 0, len, greek);
  free(dead);
  dead = 0;
  return ok;
}

/* The byte of code point cp in charset cs (the tables above), -1 if none. */
static int cs_byte(utf8_moji_charset cs, uint32_t cp){
  int k;
  if( cp<0x80 ) return (int)cp;
  for(k=0x80; k<0x100; k++){
    buf one = {0}, m = {0};
    unsigned char byte = (unsigned char)k;
    int hit;
    put(&one, &byte, 1);
    misread(&one, &m, cs);
    hit = utf8_decode_unit(m.z, m.n).codepoint==cp;
    free(one.z); free(m.z);
    if( hit ) return k;
  }
  return -1;
}
/* Random T may hold a misreading of its own: characters that cs reads
** back to one well-formed multi-byte UTF-8 character ("Ä‚”" is Ô
** misread twice as cp1250). Then a chain deeper than the misreading is a
** fair reading of T, not a wrong one. */
static int holds_misreading(const buf *t, utf8_moji_charset cs){
  unsigned char b[4];
  size_t i = 0;
  while( i<t->n ){
    size_t j = i;
    int k, need = 0;
    for(k=0; k<4 && j<t->n; k++){
      utf8_unit u = utf8_decode_unit(t->z+j, t->n-j);
      int c = cs_byte(cs, u.codepoint);
      if( c<0x80 ) break;
      b[k] = (unsigned char)c;
      j += u.length;
      if( k==0 ) need = c>=0xF0 ? 4 : c>=0xE0 ? 3 : c>=0xC2 ? 2 : 0;
      if( need && k+1==need ){
        utf8_unit v = utf8_decode_unit(b, (size_t)need);
        if( v.reason==UTF8_OK && v.length==need ) return 1;
        break;
      }
    }
    i += utf8_decode_unit(t->z+i, t->n-i).length;
  }
  return 0;
}

/* A failed round trip that left the mojibake m as it was: the engine was
** not confident (counted, not a failure of the random text). */
static int left_alone(const buf *m, size_t len){ return same(m, len); }

/*
** How far round trips may fall short of exact, per 10,000: left alone,
** and undone in part by each charset (cp1252, latin1, cp1251, cp1250,
** MacRoman, the order of utf8_moji_charset). They are what the engine
** reaches (at full size and at --quick, the generators being the same
** sequence of random numbers each run) and a quarter more: a change that
** loses round trips the engine had makes the test fail, as a false
** positive or a wrong answer does.
*/
typedef struct ceiling { int alone; int part[UTF8_MOJI_COUNT]; } ceiling;
static const ceiling ceil_ordinary = { 9,    { 0,  0,  110,  90,   4 } };
static const ceiling ceil_random   = { 825,  { 63, 53, 1440, 557, 625 } };
static const ceiling ceil_latin    = { 20,   { 0,  0,  148,  80,   6 } };
static const ceiling ceil_russian  = { 14,   { 0,  0,  0,    0,    0 } };
static const ceiling ceil_science  = { 95,   { 0,  0,  0,    88,   0 } };

/* Is n of rt round trips more than per10k of 10,000 allow? */
static int over(long n, long rt, int per10k){
  return rt>0 && n*10000 > (long)per10k*rt;
}

/*
** strict: T must not change (else it counts as looked-like-mojibake);
** exact1251: cp1251 round trips must be exact (else partial ones, where
** only the runs it was sure of were undone, are counted, not failed);
** exact_strict: the same for cp1250 and MacRoman. A partial result must
** still be consistent(): every character of T restored or left exactly
** as the misreadings made it.
*/
static void run(const char *name, void (*gen)(buf*), long iters, int strict,
                int exact1251, int exact_strict, const ceiling *lim){
  buf t = {0}, m = {0}, m2 = {0};
  counts c = {0};
  long it;
  for(it=0; it<iters; it++){
    utf8_moji_charset ch[UTF8_MOJI_MAX_DEPTH];
    size_t len;
    int d, cs;
    gen(&t);
    c.values++;
    d = unmoji(&t, &len, ch);
    if( d!=0 || !same(&t, len) ){
      if( strict ){
        c.changed++; show("changed", &t);
        if( getenv("MOJI_DEBUG") ) printf("  to %.*s\n", (int)len, outbuf);
      }
      else c.self_looking++;
      continue;
    }
    for(cs=0; cs<UTF8_MOJI_COUNT; cs++){
      /* cp1251, and in mixed text cp1250 and MacRoman, may be undone in
      ** part: only the runs the engine is sure of (rules 8, 9) */
      int part_ok = cs==UTF8_MOJI_CP1251 ? !exact1251
                  : cs==UTF8_MOJI_CP1250 || cs==UTF8_MOJI_MACROMAN ? !exact_strict
                  : !strict;
      int twice, greek;
      misread(&t, &m, (utf8_moji_charset)cs);
      misread(&m, &m2, (utf8_moji_charset)cs);
      if( m.n==t.n ) continue;                        /* ASCII: nothing */
      for(twice=0; twice<2; twice++){
        const buf *in = twice ? &m2 : &m;
        c.roundtrips++;
        d = unmoji(in, &len, ch);
        if( d==0 && left_alone(in, len) ){
          c.unsure++;
          if( getenv("MOJI_SHOW_UNSURE") ) printf("  unsure %s%s: %.*s\n    in  %.*s\n",
              utf8_moji_name((utf8_moji_charset)cs), twice ? " twice" : "",
              (int)t.n, t.z, (int)in->n, in->z);
          continue;
        }
        if( same(&t, len) && d==1+twice && explains(&t, ch, d, in)
         && (ch[0]>UTF8_MOJI_LATIN1 || cs>UTF8_MOJI_LATIN1
             || (ch[0]==expect_cs(twice ? &m : &t, (utf8_moji_charset)cs)
                 && (!twice || ch[1]==expect_cs(&t, (utf8_moji_charset)cs)))) ){
          c.exact++;
          continue;
        }
        if( twice && d==1 && left_alone(&m, len) ){
          c.unsure++;
          if( getenv("MOJI_SHOW_UNSURE") ) printf("  unsure %s once more: %.*s\n    in  %.*s\n",
              utf8_moji_name((utf8_moji_charset)cs), (int)t.n, t.z, (int)m.n, m.z);
          continue;
        }
        if( part_ok && consistent(&t, (utf8_moji_charset)cs, 1+twice, len, &greek)
         && !(strict && greek) ){
          /* in ordinary text Greek words (two letters at least) come
          ** back whole under cp1250 and MacRoman too (rule 9's rescue):
          ** one left misread is a failure */
          c.partial[cs]++;
          if( getenv("MOJI_SHOW_PARTIAL") ) printf("  partial %s%s: %.*s\n    in  %.*s\n    got %.*s\n",
              utf8_moji_name((utf8_moji_charset)cs), twice ? " twice" : "",
              (int)t.n, t.z, (int)in->n, in->z, (int)len, outbuf);
          continue;
        }
        if( !strict && d>1+twice && holds_misreading(&t, (utf8_moji_charset)cs) ){
          c.self_looking++;                 /* T holds a misreading itself */
          if( getenv("MOJI_DEBUG") ) printf("  deeper %s: %.*s\n",
              utf8_moji_name((utf8_moji_charset)cs), (int)t.n, t.z);
          continue;
        }
        if( !strict && d>0 && ch[0]!=(utf8_moji_charset)cs
         && !(ch[0]<=UTF8_MOJI_LATIN1 && cs<=UTF8_MOJI_LATIN1) ){
          /* random neighbours ("ςĆ" misread as cp1250 ends "‚Ä†", which
          ** is MacRoman's †): another charset's reading, named as such */
          c.other++;
          continue;
        }
        c.rt_fail++; show(twice ? "twice of" : "T", &t);
        if( getenv("MOJI_DEBUG") ) printf("  %s: got d=%d %.*s\n",
            utf8_moji_name((utf8_moji_charset)cs), d, (int)len, outbuf);
      }
    }
  }
  printf("%s: %ld values, %ld changed (false positives), %ld looked like "
         "mojibake themselves, %ld round trips, %ld failed, %ld left alone "
         "(not confident)\n", name, c.values, c.changed, c.self_looking,
         c.roundtrips, c.rt_fail, c.unsure);
  if( c.other ) printf("%s: read as another charset's misreading (random "
                       "neighbours, the chain names it): %ld\n", name, c.other);
  for(it=0; it<UTF8_MOJI_COUNT; it++){
    if( c.partial[it] ) printf("%s: %s misreadings undone in part (only the runs "
                               "it is sure of, the rest left as it was): %ld\n",
                               name, utf8_moji_name((utf8_moji_charset)it), c.partial[it]);
  }
  {
    long k;
    int fell = over(c.unsure, c.roundtrips, lim->alone);
    for(k=0; k<UTF8_MOJI_COUNT; k++){
      if( over(c.partial[k], c.roundtrips, lim->part[k]) ){
        fell = 1;
        printf("%s: %s undone in part %ld times, more than %d in 10,000 round trips\n",
               name, utf8_moji_name((utf8_moji_charset)k), c.partial[k], lim->part[k]);
      }
    }
    if( over(c.unsure, c.roundtrips, lim->alone) ){
      printf("%s: left alone %ld times, more than %d in 10,000 round trips\n",
             name, c.unsure, lim->alone);
    }
    printf("%s: %ld of %ld round trips exact (%.2f%%)\n", name, c.exact, c.roundtrips,
           c.roundtrips ? 100.0*(double)c.exact/(double)c.roundtrips : 0.0);
    if( c.changed==0 && c.rt_fail==0 && !fell ) n_pass++; else n_fail++;
  }
  free(t.z); free(m.z); free(m2.z);
}

/* The chain names the charset: latin1 only where cp1252 cannot explain. */
static void check_chain(void){
  static const struct { const char *in, *out, *chain; } v[] = {
    { "Caf\xC3\x83\xC2\xA9", "Caf\xC3\xA9", "cp1252" },
    { "it\xC3\xA2\xE2\x82\xAC\xE2\x84\xA2s", "it\xE2\x80\x99s", "cp1252" },
    { "it\xC3\xA2\xC2\x80\xC2\x99s", "it\xE2\x80\x99s", "latin1" },
  };
  size_t i;
  for(i=0; i<sizeof(v)/sizeof(v[0]); i++){
    buf b = {0};
    utf8_moji_charset ch[UTF8_MOJI_MAX_DEPTH];
    size_t len;
    int d;
    put_s(&b, v[i].in);
    d = unmoji(&b, &len, ch);
    if( d==1 && len==strlen(v[i].out) && memcmp(outbuf, v[i].out, len)==0
     && strcmp(utf8_moji_name(ch[0]), v[i].chain)==0 ){
      n_pass++;
    }else{
      n_fail++;
      printf("chain case %d failed\n", (int)i);
    }
    free(b.z);
  }
}

/*
** The engine's reverse mapping (character to byte, which every pass asks
** of every character) against this file's tables, for every code point
** and every single-byte charset: the table the engine reads and the
** search it builds that table from must both give the one byte that
** reads as the character, or -1; Windows-1252 and Latin-1 also give a
** character from 80 to FF its own value.
*/
static int test_byte_of(utf8_moji_charset cs, unsigned b){
  if( b<0x80 ) return (int)b;
  if( cs==UTF8_MOJI_MACROMAN || cs==UTF8_MOJI_CP1250 ) return (int)table_cp[cs==UTF8_MOJI_CP1250][b-0x80];
  if( cs==UTF8_MOJI_CP1251 ) return b>=0xC0 ? (int)(0x410+(b-0xC0)) : (int)w1251[b-0x80];
  return (cs==UTF8_MOJI_CP1252 && b<0xA0) ? (int)w1252[b-0x80] : (int)b;
}
static void check_encode(void){
  long bad = 0, found = 0;
  int cs;
  for(cs=0; cs<UTF8_MOJI_COUNT; cs++){
    static int want[0x110000];
    uint32_t cp;
    unsigned b;
    for(cp=0; cp<0x110000; cp++){
      want[cp] = (cs==UTF8_MOJI_CP1252 || cs==UTF8_MOJI_LATIN1) && cp<=0xFF ? (int)cp : -1;
    }
    for(b=0; b<256; b++) want[test_byte_of((utf8_moji_charset)cs, b)] = (int)b;
    for(cp=0; cp<0x110000; cp++){
      int t = utf8_moji_encode_char((utf8_moji_charset)cs, cp, 0);
      int s = utf8_moji_encode_char((utf8_moji_charset)cs, cp, 1);
      if( t>=0x80 ) found++;
      if( t!=want[cp] || s!=want[cp] ){
        if( bad++<5 ) printf("  encode %s U+%04X: table %d, search %d, want %d\n",
                             utf8_moji_name((utf8_moji_charset)cs), cp, t, s, want[cp]);
      }
    }
  }
  printf("encode: every code point in %d charsets, %ld bytes from 80 up, %ld wrong\n",
         (int)UTF8_MOJI_COUNT, found, bad);
  if( bad==0 ) n_pass++; else n_fail++;
}

/*
** The fast filter against the plain one: utf8_moji_possible_using() with
** every block scan this CPU runs must answer as utf8_moji_possible_plain()
** does. Inputs: every string of up to 3 bytes (the tail path); every
** 4-byte pattern over the bytes the filters look at, alone in ASCII at a
** position that walks through the block and across its edge; and random
** buffers biased to those bytes. A wrong "0" would hide mojibake, a wrong
** "1" only costs time, but both are counted.
*/
typedef size_t (*scan_fn)(const unsigned char*, size_t);
static const unsigned char hot[] = {
  0x20, 0x41, 0x61, 0x80, 0x81, 0x82, 0x83, 0x84, 0x87, 0x88, 0x8D, 0x8E,
  0x8F, 0x90, 0x91, 0x92, 0x93, 0x97, 0x99, 0x9A, 0x9B, 0x9E, 0xA2, 0xA3,
  0xA4, 0xA7, 0xA9, 0xAB, 0xAC, 0xAD, 0xAE, 0xB0, 0xB4, 0xB5, 0xB9, 0xBA,
  0xBF, 0xC2, 0xC3, 0xC4, 0xC5, 0xC6, 0xCB, 0xCE, 0xCF, 0xD0, 0xD1, 0xD2,
  0xE2, 0xEF };
#define N_HOT (sizeof(hot)/sizeof(hot[0]))

static void check_filter(void){
  scan_fn scans[4];
  const char *names[4];
  int ns = 0, k;
  long bad = 0, tried = 0, ones = 0;
  unsigned char b[600];
  size_t i, n;
  uint32_t x;
  scans[ns] = utf8_moji_scan_generic; names[ns++] = "generic";
  scans[ns] = utf8_moji_scan; names[ns++] = "dispatched";
#if defined(UTF8EXT_HAVE_X86)
  if( utf8_cpu_has_avx2() ){ scans[ns] = utf8_moji_scan_avx2; names[ns++] = "avx2"; }
  if( utf8_cpu_has_avx512() ){ scans[ns] = utf8_moji_scan_avx512; names[ns++] = "avx512"; }
#endif
  /* every string of 0 to 3 bytes */
  for(n=0; n<=3; n++){
    uint32_t lim = 1u<<(8*n);
    for(x=0; x<lim; x++){
      int want;
      for(i=0; i<n; i++) b[i] = (unsigned char)(x>>(8*i));
      want = utf8_moji_possible_plain(b, n);
      for(k=0; k<ns; k++) bad += utf8_moji_possible_using(scans[k], b, n)!=want;
      tried++;
    }
  }
  /* every 4-byte pattern of hot bytes, alone in ASCII: at offsets
  ** 0-79 of 140 bytes, or anywhere in 600 (across the 256-byte ASCII
  ** skips of the scans) */
  for(x=0; x<N_HOT*N_HOT*N_HOT*N_HOT; x++){
    size_t len = x%2 ? 600 : 140, at = x%2 ? x/2%596 : x%80;
    int want;
    memset(b, 'a', len);
    b[at] = hot[x%N_HOT]; b[at+1] = hot[x/N_HOT%N_HOT];
    b[at+2] = hot[x/N_HOT/N_HOT%N_HOT]; b[at+3] = hot[x/N_HOT/N_HOT/N_HOT];
    want = utf8_moji_possible_plain(b, len);
    ones += want;
    for(k=0; k<ns; k++) bad += utf8_moji_possible_using(scans[k], b, len)!=want;
    tried++;
  }
  /* random buffers: hot bytes and ASCII, lengths 0 to 300 */
  for(x=0; x<200000; x++){
    int want;
    n = rnd(301);
    for(i=0; i<n; i++) b[i] = rnd(4) ? hot[rnd(N_HOT)] : (unsigned char)('a'+rnd(26));
    want = utf8_moji_possible_plain(b, n);
    ones += want;
    for(k=0; k<ns; k++) bad += utf8_moji_possible_using(scans[k], b, n)!=want;
    tried++;
  }
  printf("filter: %ld inputs (every string to 3 bytes, every 4-byte pattern of "
         "%d bytes, random), %d scans (", tried, (int)N_HOT, ns);
  for(k=0; k<ns; k++) printf("%s%s", k ? " " : "", names[k]);
  printf("), %ld may-be answers, %ld disagreements\n", ones, bad);
  if( bad==0 ) n_pass++; else n_fail++;
}

/*
** UTF-16 and UTF-32 without a BOM (core/widetext.c): Latin prose T is
** written in each of the four forms by the test's own encoder; the reading
** must give T back with the right name exactly when at least two thirds
** of T's characters are U+0001..U+00FF (the rule), and never otherwise.
** T itself, UTF-8 without a NUL, is never read so.
*/
static void put_wide(buf *b, uint32_t c, int w, int be){
  unsigned char u[4];
  int k;
  if( w==2 && c>=0x10000 ){
    put_wide(b, 0xD800 + ((c-0x10000)>>10), 2, be);
    put_wide(b, 0xDC00 + ((c-0x10000)&0x3FF), 2, be);
    return;
  }
  for(k=0; k<w; k++) u[be ? w-1-k : k] = (unsigned char)(c>>(8*k));
  put(b, u, (size_t)w);
}
static void check_wide(long iters){
  static const struct { utf8_moji_charset cs; int w, be; } f[4] = {
    { UTF8_MOJI_UTF16LE, 2, 0 }, { UTF8_MOJI_UTF16BE, 2, 1 },
    { UTF8_MOJI_UTF32LE, 4, 0 }, { UTF8_MOJI_UTF32BE, 4, 1 } };
  buf t = {0}, wb = {0};
  long it, tried = 0, read = 0, bad = 0;
  unsigned char *out = 0;
  for(it=0; it<iters; it++){
    size_t i = 0, chars = 0, narrow = 0, len;
    int k;
    latin_text(&t);
    if( rnd(3)==0 ) put_cp(&t, 0x1F600+rnd(0x40));    /* an emoji: a pair */
    while( i<t.n ){
      utf8_unit u = utf8_decode_unit(t.z+i, t.n-i);
      chars++;
      narrow += u.codepoint<=0xFF;
      i += u.length;
    }
    if( utf8_moji_wide(t.z, t.n, 0, &len)!=UTF8_MOJI_COUNT ) bad++;
    for(k=0; k<4; k++){
      int want = chars>=2 && narrow*3>=chars*2;
      utf8_moji_charset got;
      wb.n = 0;
      i = 0;
      while( i<t.n ){
        utf8_unit u = utf8_decode_unit(t.z+i, t.n-i);
        put_wide(&wb, u.codepoint, f[k].w, f[k].be);
        i += u.length;
      }
      tried++;
      got = utf8_moji_wide(wb.z, wb.n, 0, &len);
      if( !want ){ bad += got!=UTF8_MOJI_COUNT; continue; }
      if( got!=f[k].cs || len!=t.n ){ bad++; continue; }
      out = realloc(out, len+1);
      utf8_moji_wide(wb.z, wb.n, out, &len);
      if( memcmp(out, t.z, len)!=0 ){ bad++; continue; }
      read++;
    }
  }
  printf("wide: %ld values in UTF-16LE/BE and UTF-32LE/BE, %ld read back "
         "exactly, %ld wrong\n", tried, read, bad);
  if( bad==0 ) n_pass++; else n_fail++;
  free(t.z); free(wb.z); free(out);
}

/*
** "settled" (see the top): unmojibake of unmojibake's result is nothing.
*/
static void check_settled(long iters){
  static void (*const gens[5])(buf*) = { ordinary_text, latin_text,
                                         russian_text, random_text, science_text };
  buf t = {0}, piece = {0}, m = {0}, m2 = {0}, res = {0};
  long it, changed = 0, mixed = 0, unsettled = 0;
  for(it=0; it<iters; it++){
    utf8_moji_charset ch[UTF8_MOJI_MAX_DEPTH];
    size_t len;
    int k, np = 1+(int)rnd(4), d, used = 0, two = 0;
    t.n = 0;
    for(k=0; k<np; k++){
      int cs = (int)rnd(UTF8_MOJI_COUNT+1), times = 1+(int)rnd(2);
      gens[rnd(5)](&piece);
      if( k ) put_s(&t, rnd(2) ? " " : " | ");
      if( cs==UTF8_MOJI_COUNT ){ put(&t, piece.z, piece.n); piece.n = 0; continue; }
      misread(&piece, &m, (utf8_moji_charset)cs);
      if( times==2 ){ misread(&m, &m2, (utf8_moji_charset)cs); put(&t, m2.z, m2.n); }
      else put(&t, m.z, m.n);
      if( used && used!=cs+1 ) two = 1;
      used = cs+1;
      piece.n = 0;
    }
    d = unmoji(&t, &len, ch);
    if( d==0 ) continue;
    changed++;
    mixed += two;
    if( d>=UTF8_MOJI_MAX_DEPTH ) continue;
    res.n = 0;
    put(&res, outbuf, len);
    if( unmoji(&res, &len, ch)!=0 ){
      unsettled++;
      if( unsettled<=5 ) printf("  not settled: %.*s\n    gave %.*s\n    then %.*s\n",
          (int)t.n, t.z, (int)res.n, res.z, (int)len, outbuf);
    }
  }
  printf("settled: %ld values (pieces misread by different charsets), %ld "
         "changed (%ld of them misread two ways), %ld changed again by a "
         "second call\n", iters, changed, mixed, unsettled);
  if( unsettled==0 ) n_pass++; else n_fail++;
  free(t.z); free(piece.z); free(m.z); free(m2.z); free(res.z);
}

int main(int argc, char **argv){
  long iters = 20000;
  if( argc>1 ) iters = strcmp(argv[1], "--quick")==0 ? iters/10 : iters*atol(argv[1]);
  load_tables();
  check_chain();
  if( !getenv("MOJI_ONLY") || strcmp(getenv("MOJI_ONLY"), "encode")==0 ) check_encode();
  if( !getenv("MOJI_ONLY") || strcmp(getenv("MOJI_ONLY"), "filter")==0 ) check_filter();
  if( !getenv("MOJI_ONLY") || strcmp(getenv("MOJI_ONLY"), "wide")==0 ) check_wide(iters);
  if( !getenv("MOJI_ONLY") || strcmp(getenv("MOJI_ONLY"), "ordinary")==0 )
    run("ordinary", ordinary_text, iters, 1, 0, 0, &ceil_ordinary);
  if( !getenv("MOJI_ONLY") || strcmp(getenv("MOJI_ONLY"), "random")==0 )
    run("random", random_text, iters, 0, 0, 0, &ceil_random);
  if( !getenv("MOJI_ONLY") || strcmp(getenv("MOJI_ONLY"), "latin")==0 )
    run("latin", latin_text, iters, 1, 0, 0, &ceil_latin);
  if( !getenv("MOJI_ONLY") || strcmp(getenv("MOJI_ONLY"), "russian")==0 )
    run("russian", russian_text, iters, 1, 1, 1, &ceil_russian);
  if( !getenv("MOJI_ONLY") || strcmp(getenv("MOJI_ONLY"), "science")==0 )
    run("science", science_text, iters, 1, 1, 0, &ceil_science);
  if( !getenv("MOJI_ONLY") || strcmp(getenv("MOJI_ONLY"), "settled")==0 )
    check_settled(iters*5);
  printf("mojibake: %d passed, %d failed\n", n_pass, n_fail);
  return n_fail!=0;
}
