/*
** bench/naive.c - RFC 3629 section 3's decoding procedure, transcribed
** without cleverness, as the baseline the benchmark divides by:
**
**   1. Initialize a binary number with all bits set to 0.
**   2. Determine which bits encode the character number from the number
**      of octets in the sequence (the table's x bits).
**   3. Distribute the bits from the sequence to the binary number.
**
** plus the protections the RFC demands of a decoder: every octet after the
** first is 10xxxxxx, the number is not an overlong form, not a surrogate
** (D800-DFFF) and not above 10FFFF. No ASCII shortcut, no tables.
*/
#include "naive.h"

#include <stdint.h>

size_t naive_find_error(const unsigned char *s, size_t n){
  size_t i = 0;
  while( i<n ){
    unsigned b = s[i];
    uint32_t cp = 0;     /* 1. all bits 0 */
    size_t len, k;
    uint32_t min;        /* the smallest number this length may encode */

    /* 2. the number of octets, and the x bits of the first one */
    if( (b & 0x80)==0x00 ){ len = 1; cp = b;        min = 0; }
    else if( (b & 0xE0)==0xC0 ){ len = 2; cp = b & 0x1F; min = 0x80; }
    else if( (b & 0xF0)==0xE0 ){ len = 3; cp = b & 0x0F; min = 0x800; }
    else if( (b & 0xF8)==0xF0 ){ len = 4; cp = b & 0x07; min = 0x10000; }
    else return i;
    if( n-i<len ) return i;

    /* 3. the x bits of the following octets, each 10xxxxxx */
    for(k=1; k<len; k++){
      unsigned c = s[i+k];
      if( (c & 0xC0)!=0x80 ) return i;
      cp = (cp<<6) | (c & 0x3F);
    }

    if( cp<min ) return i;                       /* overlong */
    if( cp>=0xD800 && cp<=0xDFFF ) return i;     /* surrogate */
    if( cp>0x10FFFF ) return i;                  /* beyond Unicode */
    i += len;
  }
  return n;
}
