/*
** core/recode.c - decode the ill-formed units of mostly-UTF-8 text as the
** legacy encoding they probably came from: Windows-1252, Latin-1, CESU-8
** (Oracle) or Java's modified UTF-8. Well-formed stretches are copied.
*/
#include "utf8.h"
#include "impl.h"

#include <string.h>

/*
** Windows-1252 bytes 80-9F, as the WHATWG Encoding Standard maps them.
** The five bytes Windows leaves undefined (81 8D 8F 90 9D) map to the C1
** control of the same value, as WHATWG does.
*/
const uint16_t utf8_cp1252_80_9f[32] = {
  0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, /* 80-87 */
  0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F, /* 88-8F */
  0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, /* 90-97 */
  0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178, /* 98-9F */
};

/* Append the UTF-8 of scalar value cp at out+*o (when out is not NULL). */
static void emit_cp(unsigned char *out, size_t *o, uint32_t cp){
  unsigned char buf[4];
  size_t len = utf8_encode_scalar(cp, buf);
  if( out ) memcpy(out+*o, buf, len);
  *o = utf8_add_sat(*o, len);
}

/* ED A0-AF 80-BF: the first half of a CESU-8 surrogate pair. */
static int is_high_surrogate(const unsigned char *s, size_t n){
  return n>=3 && s[0]==0xED && s[1]>=0xA0 && s[1]<=0xAF && (s[2]&0xC0)==0x80;
}

/* ED B0-BF 80-BF: the second half. */
static int is_low_surrogate(const unsigned char *s, size_t n){
  return n>=3 && s[0]==0xED && s[1]>=0xB0 && s[1]<=0xBF && (s[2]&0xC0)==0x80;
}

/*
** Decode the ill-formed unit u at s[0..n) the legacy way; return how many
** bytes it consumed (a CESU-8 pair or a MUTF-8 NUL takes more than u).
*/
static size_t recode_unit(const unsigned char *s, size_t n, utf8_unit u,
                          utf8_recode_enc enc, unsigned char *out, size_t *o){
  size_t k;
  switch( enc ){
    case UTF8_RECODE_CP1252:
      for(k=0; k<u.length; k++){
        uint32_t b = s[k];
        emit_cp(out, o, (b>=0x80 && b<=0x9F) ? utf8_cp1252_80_9f[b-0x80] : b);
      }
      return u.length;
    case UTF8_RECODE_LATIN1:
      for(k=0; k<u.length; k++) emit_cp(out, o, s[k]);
      return u.length;
    case UTF8_RECODE_MUTF8:   /* CESU-8, and C0 80 for U+0000 */
    case UTF8_RECODE_CESU8:
      if( enc==UTF8_RECODE_MUTF8 && n>=2 && s[0]==0xC0 && s[1]==0x80 ){
        emit_cp(out, o, 0);
        return 2;
      }
      if( is_high_surrogate(s, n) && is_low_surrogate(s+3, n-3) ){
        uint32_t hi = 0xD000 | ((uint32_t)(s[1]&0x3F)<<6) | (s[2]&0x3F);
        uint32_t lo = 0xD000 | ((uint32_t)(s[4]&0x3F)<<6) | (s[5]&0x3F);
        emit_cp(out, o, 0x10000 + ((hi-0xD800)<<10) + (lo-0xDC00));
        return 6;
      }
      emit_cp(out, o, 0xFFFD);
      return u.length;
  }
  return u.length;
}

size_t utf8_recode(const unsigned char *s, size_t n, utf8_recode_enc enc,
                   unsigned char *out){
  size_t i = 0, o = 0;
  while( i<n ){
    size_t k = utf8_find_error(s+i, n-i);
    if( out && k ) memcpy(out+o, s+i, k);
    o = utf8_add_sat(o, k);
    i += k;
    if( i<n ){
      utf8_unit u = utf8_decode_unit(s+i, n-i);
      i += recode_unit(s+i, n-i, u, enc, out, &o);
    }
  }
  return o;
}

/*
** Every byte of s as one character of a single-byte charset: cp1252
** (WHATWG's table, the five undefined bytes as C1 controls) or Latin-1.
** For a legacy value whose bytes happen to hold a well-formed pair, which
** utf8_recode would keep as UTF-8. CESU-8 and MUTF-8 are not single-byte:
** they give 0 here, and the callers refuse them first.
*/
size_t utf8_recode_whole(const unsigned char *s, size_t n, utf8_recode_enc enc,
                         unsigned char *out){
  size_t i, o = 0;
  if( enc!=UTF8_RECODE_CP1252 && enc!=UTF8_RECODE_LATIN1 ) return 0;
  for(i=0; i<n; i++){
    unsigned b = s[i];
    if( b<0x80 ){
      if( out ) out[o] = (unsigned char)b;
      o = utf8_add_sat(o, 1);
    }else{
      emit_cp(out, &o, enc==UTF8_RECODE_CP1252 && b<=0x9F ? utf8_cp1252_80_9f[b-0x80] : b);
    }
  }
  return o;
}
