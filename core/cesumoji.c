/*
** core/cesumoji.c - CESU-8 read as Windows-1252, put back
** (core/cesumoji.h).
**
** A whole reading, as core/reencode.c's: every character of the value is
** encoded in Windows-1252 (its undefined bytes are the C1 controls of the
** same value, as WHATWG maps them), and those bytes must be UTF-8 but
** for at least one surrogate pair written as two three-byte sequences
** (ED A0-AF xx, then ED B0-BF xx), and nothing else ill-formed; the pairs
** are decoded as CESU-8 (utf8_recode), and the text that makes must cost
** less than the value in the model of real text by CESU_MOJI_MARGIN. The
** old engine (core/mojibake.c) is asked after this: it would undo the
** rest of such a value and leave the emoji's halves.
*/
#include "cesumoji.h"
#include "charsets.h"
#include "guess.h"
#include "utf8.h"

#include <string.h>

int utf8_cesu_mojibake_possible(const unsigned char *s, size_t n){
  size_t i;
  if( n<6 || n>CESU_MOJI_MAX ) return 0;
  /* í (C3 AD) then one of U+00A0 to U+00AF (C2 A0-AF), what ED and a
  ** surrogate's second byte become: AD is the rarest of those bytes */
  for(i=1; i+2<n; i++){
    const unsigned char *p = memchr(s+i, 0xAD, n-2-i);
    if( p==0 ) return 0;
    i = (size_t)(p-s);
    if( s[i-1]==0xC3 && s[i+1]==0xC2 && s[i+2]>=0xA0 && s[i+2]<=0xAF ) return 1;
  }
  return 0;
}

/* 1 if b[0..k) is UTF-8 but for CESU-8 surrogate pairs, at least one. */
static int cesu_shape(const unsigned char *b, size_t k){
  size_t i = 0;
  int nPair = 0;
  while( i<k ){
    utf8_unit u = utf8_decode_unit(b+i, k-i);
    if( u.reason==UTF8_OK ){ i += u.length; continue; }
    if( i+6<=k && b[i]==0xED && b[i+1]>=0xA0 && b[i+1]<=0xAF
     && (b[i+2]&0xC0)==0x80 && b[i+3]==0xED && b[i+4]>=0xB0
     && b[i+4]<=0xBF && (b[i+5]&0xC0)==0x80 ){
      i += 6;
      nPair++;
      continue;
    }
    return 0;
  }
  return nPair>0;
}

int utf8_cesu_mojibake(const unsigned char *s, size_t n, unsigned char *out,
                       size_t *pnOut, unsigned char *scratch){
  size_t i = 0, k = 0, m;
  if( !utf8_cesu_mojibake_possible(s, n) ) return 0;
  while( i<n ){
    utf8_unit u = utf8_decode_unit(s+i, n-i);
    if( u.reason!=UTF8_OK ) return 0;
    if( utf8_charset_encode(UTF8_CS_WINDOWS_1252, u.codepoint, scratch+k)!=1 ) return 0;
    i += u.length;
    k++;
  }
  if( !cesu_shape(scratch, k) ) return 0;
  m = utf8_recode(scratch, k, UTF8_RECODE_CESU8, 0);
  if( m>=n ) return 0;
  utf8_recode(scratch, k, UTF8_RECODE_CESU8, out);
  if( !utf8_is_valid(out, m) ) return 0;
  if( utf8_guess_text_cost(s, n) - utf8_guess_text_cost(out, m)<CESU_MOJI_MARGIN ) return 0;
  *pnOut = m;
  return 1;
}
