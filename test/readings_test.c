/*
** test/readings_test.c - the whole readings of core/c1moji.c (Windows-1252
** read as Latin-1), core/cesumoji.c (CESU-8 read as Windows-1252) and
** core/lossymoji.c (UTF-8 read as Windows-1252, undefined bytes made
** U+FFFD), on strings made from a fixed seed:
**
** 1. text of words (Latin letters, accented ones, the punctuation that
**    Windows-1252 has at 80-9F, emoji), written as each misreading makes
**    it: every one must come back exactly (a lost character as U+FFFD),
**    but a lossy one with no character read back whole, which may be
**    left (core/lossymoji.h, LOSSY_MOJI_ALONE);
** 2. the same text as it is: none changed;
** 3. random well-formed strings: whatever a reading gives must be
**    well-formed and undo exactly (encoded back, read the wrong way
**    again, it is the input).
**
** The last line is "readings: N passed, N failed".
*/
#include "c1moji.h"
#include "cesumoji.h"
#include "lossymoji.h"
#include "charsets.h"
#include "utf8.h"

#include <stdint.h>
#include <stdio.h>
#include <string.h>

static uint64_t rng = 20261129;
static uint32_t rnd(void){
  rng ^= rng<<13; rng ^= rng>>7; rng ^= rng<<17;
  return (uint32_t)(rng>>11);
}

static const char *const azWord[] = {
  "the", "file", "was", "not", "found", "café", "déjà", "vu", "naïve", "Größe",
  "señor", "crème", "brûlée", "It’s", "“quoted”", "—", "…", "5€", "œuvre",
  "Š", "ž", "™", "•", "😀", "👍", "🎉", "fine", "Álvaro", "Ýmir", "ſ",
  "Tuvināt", "automātiski", "Ő", "ā", "ŝ", "Ł",
};
#define N_WORD (int)(sizeof(azWord)/sizeof(azWord[0]))

static size_t text(unsigned char *buf){
  int k, nWord = 2 + (int)(rnd()%8);
  size_t n = 0;
  for(k=0; k<nWord; k++){
    const char *w = azWord[rnd()%N_WORD];
    if( k ) buf[n++] = ' ';
    memcpy(buf+n, w, strlen(w));
    n += strlen(w);
  }
  return n;
}

/* s read as Latin-1 after it was written in Windows-1252; 0 if it cannot
** be written so. */
static size_t as_latin1(const unsigned char *s, size_t n, unsigned char *out){
  size_t i = 0, k = 0;
  while( i<n ){
    utf8_unit u = utf8_decode_unit(s+i, n-i);
    unsigned char b[4];
    if( utf8_charset_encode(UTF8_CS_WINDOWS_1252, u.codepoint, b)!=1 ) return 0;
    k += utf8_encode_scalar(b[0], out+k);
    i += u.length;
  }
  return k;
}

/* s written as CESU-8 and read as Windows-1252; 0 if a byte of it is one
** Windows-1252 leaves undefined (the misreading is strict). */
static size_t cesu_as_cp1252(const unsigned char *s, size_t n, unsigned char *out){
  unsigned char b[4096];
  size_t i = 0, k = 0, j, m = 0;
  while( i<n ){
    utf8_unit u = utf8_decode_unit(s+i, n-i);
    if( u.codepoint>0xFFFF ){
      uint32_t v = u.codepoint - 0x10000, h = 0xD800 + (v>>10), l = 0xDC00 + (v&0x3FF);
      b[k++] = 0xED; b[k++] = (unsigned char)(0x80 | ((h>>6)&0x3F)); b[k++] = (unsigned char)(0x80 | (h&0x3F));
      b[k++] = 0xED; b[k++] = (unsigned char)(0x80 | ((l>>6)&0x3F)); b[k++] = (unsigned char)(0x80 | (l&0x3F));
    }else{
      memcpy(b+k, s+i, u.length);
      k += u.length;
    }
    i += u.length;
  }
  for(j=0; j<k; j++){
    uint32_t cp = b[j]<0x80 ? b[j] : utf8_cs_single[UTF8_CS_WINDOWS_1252][b[j]-0x80];
    if( cp>=0x80 && cp<=0x9F ) return 0;
    m += utf8_encode_scalar(cp, out+m);
  }
  return m;
}

/* s's UTF-8 read as Windows-1252, each undefined byte (81 8D 8F 90 9D) as
** U+FFFD, into out; and into want what reading it back gives (each
** character with such a byte one U+FFFD). 0 if s has no such byte. */
static size_t lossy(const unsigned char *s, size_t n, unsigned char *out,
                    unsigned char *want, size_t *pnWant){
  size_t i, k = 0, w = 0;
  int nLost = 0;
  for(i=0; i<n; i++){
    uint32_t cp = s[i]<0x80 ? s[i] : utf8_cs_single[UTF8_CS_WINDOWS_1252][s[i]-0x80];
    if( cp==s[i] && cp>=0x80 && cp<=0x9F ){ cp = 0xFFFD; nLost++; }
    k += utf8_encode_scalar(cp, out+k);
  }
  for(i=0; i<n; ){
    utf8_unit u = utf8_decode_unit(s+i, n-i);
    size_t j;
    int bLost = 0;
    for(j=1; j<u.length; j++){
      unsigned char b = s[i+j];
      if( b==0x81 || b==0x8D || b==0x8F || b==0x90 || b==0x9D ) bLost = 1;
    }
    if( bLost ){ memcpy(want+w, "\xEF\xBF\xBD", 3); w += 3; }
    else{ memcpy(want+w, s+i, u.length); w += u.length; }
    i += u.length;
  }
  *pnWant = w;
  return nLost ? k : 0;
}

int main(void){
  static unsigned char aText[4096], aMis[8192], aOut[16384], aScratch[3*8192], aBack[16384];
  long nC1 = 0, nC1Back = 0, nCesu = 0, nCesuBack = 0, nClean = 0, nCleanChanged = 0;
  long nRandom = 0, nRandomChanged = 0, nRandomBad = 0, nLossy = 0, nLossyBack = 0;
  long nLossyLeft = 0;
  int nPass = 0, nFail = 0, k;
  static unsigned char aWant[16384];
  printf("seed %llu (fixed: the same strings every run)\n", (unsigned long long)rng);
  for(k=0; k<20000; k++){
    size_t n = text(aText), m, len = 0;
    nClean++;
    if( utf8_c1_mojibake(aText, n, aOut, &len)
     || utf8_cesu_mojibake(aText, n, aOut, &len, aScratch)
     || utf8_lossy_mojibake(aText, n, aOut, &len, aScratch) ){
      if( nCleanChanged++<5 ) printf("clean changed: %.*s\n", (int)n, aText);
    }
    m = as_latin1(aText, n, aMis);
    if( m && memchr(aMis, 0xC2, m) ){
      size_t i;
      int bC1 = 0;
      for(i=0; i+1<m; i++) if( aMis[i]==0xC2 && aMis[i+1]>=0x80 && aMis[i+1]<=0x9F ) bC1 = 1;
      if( bC1 ){
        nC1++;
        if( utf8_c1_mojibake(aMis, m, aOut, &len) && len==n && memcmp(aOut, aText, n)==0 ){
          nC1Back++;
        }else if( nC1-nC1Back<=5 ){
          printf("not back (cp1252-as-latin1): %.*s\n", (int)n, aText);
        }
      }
    }
    {
      size_t nWant = 0;
      m = lossy(aText, n, aMis, aWant, &nWant);
      if( m ){
        nLossy++;
        if( !utf8_lossy_mojibake(aMis, m, aOut, &len, aScratch) ){
          nLossyLeft++;               /* not read back: left */
        }else if( len==nWant && memcmp(aOut, aWant, nWant)==0 ){
          nLossyBack++;
        }else if( nLossy-nLossyBack-nLossyLeft<=5 ){
          printf("wrong (cp1252-lossy): %.*s\n", (int)n, aText);
        }
      }
    }
    m = cesu_as_cp1252(aText, n, aMis);
    if( m && m!=n ){
      int bEmoji = 0;
      size_t i;
      for(i=0; i<n; i++) if( aText[i]>=0xF0 ) bEmoji = 1;
      if( bEmoji ){
        nCesu++;
        if( utf8_cesu_mojibake(aMis, m, aOut, &len, aScratch) && len==n
         && memcmp(aOut, aText, n)==0 ){
          nCesuBack++;
        }else if( nCesu-nCesuBack<=5 ){
          printf("not back (cesu8-as-cp1252): %.*s\n", (int)n, aText);
        }
      }
    }
  }
  printf("cp1252-as-latin1: %ld of %ld back; cesu8-as-cp1252: %ld of %ld back; "
         "clean: %ld, %ld changed\n", nC1Back, nC1, nCesuBack, nCesu, nClean, nCleanChanged);
  if( nC1>1000 && nC1Back==nC1 ) nPass++; else nFail++;
  if( nCesu>1000 && nCesuBack==nCesu ) nPass++; else nFail++;
  printf("cp1252-lossy: %ld of %ld back, %ld left alone, %ld wrong\n", nLossyBack,
         nLossy, nLossyLeft, nLossy-nLossyBack-nLossyLeft);
  if( nLossy>1000 && nLossyBack+nLossyLeft==nLossy && nLossyBack*100>=nLossy*90 ) nPass++;
  else nFail++;
  if( nCleanChanged==0 ) nPass++; else nFail++;

  /* random strings of Latin-1 (C1 controls included), cp1252's
  ** punctuation and letters, emoji: any answer undoes exactly */
  for(k=0; k<200000; k++){
    static const uint32_t aCp[] = { 0x20AC, 0x2019, 0x201C, 0x201D, 0x2013,
                                    0x2026, 0x0161, 0x017D, 0x1F600, 0x0153 };
    unsigned char in[256];
    size_t n = 0, len = 0, m;
    int j, nChar = 1 + (int)(rnd()%20);
    for(j=0; j<nChar; j++){
      uint32_t r = rnd()%4, cp = r==0 ? 0x20 + rnd()%0x5F : r==1 ? 0x80 + rnd()%0x80
                                 : r==2 ? 0xE0 + rnd()%0x20 : aCp[rnd()%10];
      n += utf8_encode_scalar(cp, in+n);
    }
    nRandom++;
    if( utf8_c1_mojibake(in, n, aOut, &len) ){
      nRandomChanged++;
      m = as_latin1(aOut, len, aBack);
      if( !utf8_is_valid(aOut, len) || m!=n || memcmp(aBack, in, n)!=0 ) nRandomBad++;
    }
    if( utf8_cesu_mojibake(in, n, aOut, &len, aScratch) ){
      nRandomChanged++;
      m = cesu_as_cp1252(aOut, len, aBack);
      if( !utf8_is_valid(aOut, len) || m!=n || memcmp(aBack, in, n)!=0 ) nRandomBad++;
    }
  }
  printf("random: %ld values, %ld readings taken, %ld not exactly undoable\n",
         nRandom, nRandomChanged, nRandomBad);
  if( nRandomBad==0 ) nPass++; else nFail++;
  printf("readings: %d passed, %d failed\n", nPass, nFail);
  return nFail!=0;
}
