/*
** core/lossymoji.c - UTF-8 read as Windows-1252, its undefined bytes made
** U+FFFD, read back as far as it can be (core/lossymoji.h).
**
** A whole reading: every character of the value is encoded in
** Windows-1252, a U+FFFD standing for one byte that is lost but was one
** of the five Windows-1252 leaves undefined (81 8D 8F 90 9D: continuation
** bytes, all five). Those bytes must be UTF-8, a lost byte standing only
** where one of the five could (after E0 none can, after F4 only 81 8D 8F),
** with at least one lost byte; each character that held one becomes one
** U+FFFD, the rest decode as they are. The text that makes must cost less
** than the value in the model of real text by LOSSY_MOJI_MARGIN; and
** where no character is read back whole, the likeliest text the lost
** bytes could have made must cost less than the value without its
** U+FFFDs by LOSSY_MOJI_ALONE (see likeliest_cost()). The old
** engine (core/mojibake.c) is asked after this: it would undo the rest of
** such a value and leave "Ã" before each U+FFFD.
*/
#include "lossymoji.h"
#include "charsets.h"
#include "guess.h"
#include "utf8.h"

#include <stdint.h>
#include <string.h>

int utf8_lossy_mojibake_possible(const unsigned char *s, size_t n){
  size_t i;
  if( n<5 || n>LOSSY_MOJI_MAX ) return 0;
  for(i=0; i+2<n; i++){                        /* U+FFFD is EF BF BD */
    const unsigned char *p = memchr(s+i, 0xEF, n-2-i);
    if( p==0 ) return 0;
    i = (size_t)(p-s);
    if( s[i+1]==0xBF && s[i+2]==0xBD ) return 1;
  }
  return 0;
}

/* 1 if a lost byte (81 8D 8F 90 or 9D) may stand at position j (1 to 3)
** of a character that lead begins. */
static int lost_fits(unsigned char lead, int j){
  if( j>1 ) return 1;
  if( lead==0xE0 ) return 0;                      /* A0-BF */
  if( lead==0xF0 ) return 1;                      /* 90-BF: 90, 9D */
  if( lead==0xF4 ) return 1;                      /* 80-8F: 81, 8D, 8F */
  return 1;                                       /* 80-BF, ED's 80-9F */
}

/*
** What the model says the likeliest text b[0..k) was costs: each lost byte
** (lost[i]) made, left to right, the one of the five that makes the text
** cheapest; UTF8_GUESS_OUT if none of them makes it well-formed. r gets
** the text (k bytes).
*/
static int32_t likeliest_cost(const unsigned char *b, const unsigned char *lost,
                              size_t k, unsigned char *r){
  static const unsigned char aFive[] = { 0x81, 0x8D, 0x8F, 0x90, 0x9D };
  int32_t best = UTF8_GUESS_OUT;
  size_t i;
  memcpy(r, b, k);
  for(i=0; i<k; i++){
    unsigned char bBest = 0;
    size_t f;
    if( !lost[i] ) continue;
    best = UTF8_GUESS_OUT;
    for(f=0; f<sizeof(aFive); f++){
      int32_t x;
      size_t p = i;
      r[i] = aFive[f];
      /* its character well-formed (a byte lost after it still 81) */
      while( p>0 && (r[p]&0xC0)==0x80 ) p--;
      if( utf8_decode_unit(r+p, k-p).reason!=UTF8_OK ) continue;
      x = utf8_guess_text_cost(r, k);
      if( x<best ){ best = x; bBest = aFive[f]; }
    }
    if( bBest==0 ) return UTF8_GUESS_OUT;
    r[i] = bBest;
  }
  return best;                          /* the text as the last byte left it */
}

/* What the model says s[0..n) costs without its U+FFFDs; r gets the text. */
static int32_t cost_without_fffd(const unsigned char *s, size_t n,
                                 unsigned char *r){
  size_t i = 0, q = 0;
  while( i<n ){
    if( i+2<n && s[i]==0xEF && s[i+1]==0xBF && s[i+2]==0xBD ){ i += 3; continue; }
    r[q++] = s[i++];
  }
  return utf8_guess_text_cost(r, q);
}

int utf8_lossy_mojibake(const unsigned char *s, size_t n, unsigned char *out,
                        size_t *pnOut, unsigned char *scratch){
  unsigned char *b = scratch, *lost = scratch + n;
  size_t i = 0, k = 0, m = 0;
  int nLost = 0, nWhole = 0;
  if( !utf8_lossy_mojibake_possible(s, n) ) return 0;
  while( i<n ){
    utf8_unit u = utf8_decode_unit(s+i, n-i);
    unsigned char c[4];
    if( u.reason!=UTF8_OK ) return 0;
    lost[k] = u.codepoint==0xFFFD;
    if( lost[k] ) c[0] = 0x81;                    /* any of the five */
    else if( utf8_charset_encode(UTF8_CS_WINDOWS_1252, u.codepoint, c)!=1 ) return 0;
    b[k++] = c[0];
    i += u.length;
  }
  for(i=0; i<k; ){
    size_t len, j;
    int bLost = 0;
    if( lost[i] ) return 0;                       /* a lost lead: none is */
    if( b[i]<0x80 ){ out[m++] = b[i++]; continue; }
    len = b[i]>=0xC2 && b[i]<=0xDF ? 2 : b[i]>=0xE0 && b[i]<=0xEF ? 3
        : b[i]>=0xF0 && b[i]<=0xF4 ? 4 : 0;
    if( len==0 || i+len>k ) return 0;
    for(j=1; j<len; j++){
      if( lost[i+j] ){
        if( !lost_fits(b[i], (int)j) ) return 0;
        bLost = 1;
      }else if( (b[i+j]&0xC0)!=0x80 ){
        return 0;
      }
    }
    if( bLost ){
      memcpy(out+m, "\xEF\xBF\xBD", 3);
      m += 3;
      nLost++;
    }else{
      if( utf8_decode_unit(b+i, len).reason!=UTF8_OK ) return 0;
      memcpy(out+m, b+i, len);
      m += len;
      nWhole++;
    }
    i += len;
  }
  if( nLost==0 || m>=n ) return 0;
  if( nWhole==0 ){
    /* only lost characters: "Ä" U+FFFD is as often a real Ä beside a
    ** byte a decoder replaced ("É" U+FFFD "s possible"). Which was it?
    ** The likeliest text of the lost bytes ("sluÄ" U+FFFD "aju" could
    ** only have been "slučaju") against the value without its U+FFFDs
    ** ("És possible" against "ɐs possible", where a lost byte after É
    ** could only make IPA) */
    unsigned char *r = scratch + 2*n;
    int32_t x = likeliest_cost(b, lost, k, r);
    if( x==UTF8_GUESS_OUT ) return 0;
    if( (int64_t)cost_without_fffd(s, n, r) - x<LOSSY_MOJI_ALONE ) return 0;
  }
  if( utf8_guess_text_cost(s, n) - utf8_guess_text_cost(out, m)<LOSSY_MOJI_MARGIN ) return 0;
  *pnOut = m;
  return 1;
}
