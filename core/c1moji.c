/*
** core/c1moji.c - Windows-1252 text read as Latin-1, put back
** (core/c1moji.h).
**
** A whole reading, as core/reencode.c's: the value must be what a Latin-1
** decoder makes (every character U+0000 to U+00FF), with at least one of
** the C1 controls that Windows-1252 has a character for (U+0080 to
** U+009F but 81, 8D, 8F, 90 and 9D); its bytes are decoded again as
** Windows-1252, and the text that makes must cost no more than the value
** in the model of real text (core/model.h): the shape is the evidence.
** (With a margin of 10 bits, "crème •" stayed "crème" U+0095: the model
** prices a bullet and a C1 control alike, both rare in its text.)
*/
#include "c1moji.h"
#include "charsets.h"
#include "guess.h"
#include "utf8.h"

#include <stdint.h>

int utf8_c1_mojibake(const unsigned char *s, size_t n, unsigned char *out,
                     size_t *pnOut){
  const uint16_t *cp1252 = utf8_cs_single[UTF8_CS_WINDOWS_1252];
  size_t i = 0, k = 0;
  int nC1 = 0;
  if( n<2 || n>C1_MOJI_MAX ) return 0;
  while( i<n ){
    utf8_unit u = utf8_decode_unit(s+i, n-i);
    uint32_t cp = u.codepoint;
    if( u.reason!=UTF8_OK || cp>0xFF ) return 0;   /* not Latin-1's reading */
    if( cp>=0x80 && cp<=0x9F && cp1252[cp-0x80]!=cp ){
      cp = cp1252[cp-0x80];
      nC1++;
    }
    k += utf8_encode_scalar(cp, out+k);
    i += u.length;
  }
  if( nC1==0 ) return 0;
  if( utf8_guess_text_cost(s, n) - utf8_guess_text_cost(out, k)<C1_MOJI_MARGIN ) return 0;
  *pnOut = k;
  return 1;
}
