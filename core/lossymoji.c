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
** than the value in the model of real text by LOSSY_MOJI_MARGIN. The old
** engine (core/mojibake.c) is asked after this: it would undo the rest of
** such a value and leave "Ã" before each U+FFFD.
*/
#include "lossymoji.h"
#include "charsets.h"
#include "guess.h"
#include "utf8.h"

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
  /* and a character read back whole beside the lost ones: "Ç" then
  ** U+FFFD is as often a real Ç beside a byte utf8_fix replaced */
  if( nLost==0 || nWhole==0 || m>=n ) return 0;
  if( utf8_guess_text_cost(s, n) - utf8_guess_text_cost(out, m)<LOSSY_MOJI_MARGIN ) return 0;
  *pnOut = m;
  return 1;
}
