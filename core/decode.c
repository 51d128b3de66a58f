/*
** core/decode.c - the segmentation (utf8_decode_unit), the scalar
** validator that every other implementation must agree with, and the small
** walks built on them: counting units, counting errors, encoding a scalar.
*/
#include "utf8.h"
#include "impl.h"

#include <string.h>

static const char *const reason_names[UTF8_REASON_COUNT] = {
  0,                          /* UTF8_OK */
  "unexpected continuation",  /* UTF8_UNEXPECTED_CONTINUATION */
  "overlong",                 /* UTF8_OVERLONG */
  "surrogate",                /* UTF8_SURROGATE */
  "too large",                /* UTF8_TOO_LARGE */
  "missing continuation",     /* UTF8_MISSING_CONTINUATION */
  "truncated",                /* UTF8_TRUNCATED */
};

const char *utf8_reason_text(utf8_reason reason){
  if( (unsigned)reason>=UTF8_REASON_COUNT ) return 0;
  return reason_names[reason];
}

static utf8_unit unit_bad(uint8_t length, utf8_reason reason){
  utf8_unit u;
  u.codepoint = 0;
  u.length = length;
  u.reason = (uint8_t)reason;
  return u;
}

/*
** Table 3-7 row by row. The lead byte fixes how many continuation bytes
** follow and narrows the range of the first of them (E0 A0-BF, ED 80-9F,
** F0 90-BF, F4 80-8F); every other continuation is 80-BF. The unit ends
** at the first byte that breaks the row: that is the maximal subpart.
**
** When the first continuation is a byte 80-BF outside the narrowed range,
** the lead alone is the unit and the range says why: below it is an
** overlong form, above it a surrogate (ED) or a value past U+10FFFF (F4).
*/
utf8_unit utf8_decode_unit(const unsigned char *s, size_t n){
  unsigned b0 = s[0];
  unsigned lo = 0x80, hi = 0xBF;  /* allowed range of the first continuation */
  unsigned need;                  /* continuation bytes that must follow */
  uint32_t cp;
  unsigned k;
  utf8_unit u;

  if( b0<0x80 ){
    u.codepoint = b0;
    u.length = 1;
    u.reason = UTF8_OK;
    return u;
  }
  if( b0<0xC0 ) return unit_bad(1, UTF8_UNEXPECTED_CONTINUATION);
  if( b0<0xC2 ) return unit_bad(1, UTF8_OVERLONG);          /* C0, C1 */
  if( b0>0xF4 ) return unit_bad(1, UTF8_TOO_LARGE);         /* F5-FF */

  if( b0<0xE0 ){
    need = 1; cp = b0 & 0x1F;
  }else if( b0<0xF0 ){
    need = 2; cp = b0 & 0x0F;
    if( b0==0xE0 ) lo = 0xA0;        /* below: overlong */
    else if( b0==0xED ) hi = 0x9F;   /* above: surrogate */
  }else{
    need = 3; cp = b0 & 0x07;
    if( b0==0xF0 ) lo = 0x90;        /* below: overlong */
    else if( b0==0xF4 ) hi = 0x8F;   /* above: too large */
  }

  if( n<2 ) return unit_bad(1, UTF8_TRUNCATED);
  if( s[1]<lo || s[1]>hi ){
    if( s[1]<0x80 || s[1]>0xBF ) return unit_bad(1, UTF8_MISSING_CONTINUATION);
    if( s[1]<lo ) return unit_bad(1, UTF8_OVERLONG);
    return unit_bad(1, b0==0xED ? UTF8_SURROGATE : UTF8_TOO_LARGE);
  }
  cp = (cp<<6) | (s[1] & 0x3F);
  for(k=2; k<=need; k++){
    if( n<=k ) return unit_bad((uint8_t)k, UTF8_TRUNCATED);
    if( (s[k] & 0xC0)!=0x80 ) return unit_bad((uint8_t)k, UTF8_MISSING_CONTINUATION);
    cp = (cp<<6) | (s[k] & 0x3F);
  }
  u.codepoint = cp;
  u.length = (uint8_t)(need+1);
  u.reason = UTF8_OK;
  return u;
}

/*
** utf8_unit_len's rows (core/impl.h): Table 3-7 again, as data. Written out by
** byte range; test/core_test.c checks every row against utf8_decode_unit.
*/
#define ROW_BAD  { 0, 0x80, 0x3F, 1 }
#define ROW_2    { 1, 0x80, 0x3F, 0 }
#define ROW_3    { 2, 0x80, 0x3F, 0 }
#define ROW_4    { 3, 0x80, 0x3F, 0 }
#define ROW_1    { 0, 0x80, 0x3F, 0 }
#define X4(...) __VA_ARGS__, __VA_ARGS__, __VA_ARGS__, __VA_ARGS__
#define X16(...) X4(__VA_ARGS__), X4(__VA_ARGS__), X4(__VA_ARGS__), X4(__VA_ARGS__)
const utf8_unit_row utf8_unit_rows[] = {
  X16(ROW_1), X16(ROW_1), X16(ROW_1), X16(ROW_1),                 /* 00-3F */
  X16(ROW_1), X16(ROW_1), X16(ROW_1), X16(ROW_1),                 /* 40-7F */
  X16(ROW_BAD), X16(ROW_BAD), X16(ROW_BAD), X16(ROW_BAD),       /* 80-BF */
  ROW_BAD, ROW_BAD, ROW_2, ROW_2, X4(ROW_2), X4(ROW_2), X4(ROW_2), /* C0-CF */
  X16(ROW_2),                                                     /* D0-DF */
  { 2, 0xA0, 0x1F, 0 },                                           /* E0 */
  X4(ROW_3), X4(ROW_3), X4(ROW_3),                                /* E1-EC */
  { 2, 0x80, 0x1F, 0 },                                           /* ED */
  ROW_3, ROW_3,                                                   /* EE-EF */
  { 3, 0x90, 0x2F, 0 },                                           /* F0 */
  ROW_4, ROW_4, ROW_4,                                            /* F1-F3 */
  { 3, 0x80, 0x0F, 0 },                                           /* F4 */
  ROW_BAD, ROW_BAD, ROW_BAD, X4(ROW_BAD), X4(ROW_BAD),            /* F5-FF */
};
#undef ROW_BAD
#undef ROW_1
#undef ROW_2
#undef ROW_3
#undef ROW_4
#undef X4
#undef X16
_Static_assert(sizeof(utf8_unit_rows)/sizeof(utf8_unit_rows[0])==256, "one row per byte");

/*
** The length of the well-formed character at s[0] (rest>=1 bytes left),
** or 0 when an ill-formed unit starts there. Table 3-7 written out for
** the well-formed case only: the scalar validators need no reason and no
** unit length on this path, so they skip utf8_decode_unit's call and its
** reason bookkeeping, and a lead's range for its second byte comes from
** two small tables instead of branches.
*/
static const uint8_t second_hi3[16] = { /* E0-EF: ED stops at 9F (surrogates) */
  0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0xBF,
  0xBF, 0xBF, 0xBF, 0xBF, 0xBF, 0x9F, 0xBF, 0xBF,
};
static const uint8_t second_hi4[5] = { 0xBF, 0xBF, 0xBF, 0xBF, 0x8F };  /* F0-F4 */

static inline size_t valid_char_len(const unsigned char *s, size_t rest){
  unsigned b0 = s[0];
  if( b0<0x80 ) return 1;
  if( b0<0xC2 ) return 0;                             /* 80-BF, C0, C1 */
  if( b0<0xE0 ){
    return rest>=2 && (s[1] & 0xC0)==0x80 ? 2 : 0;
  }
  if( b0<0xF0 ){
    unsigned lo = b0==0xE0 ? 0xA0 : 0x80, hi = second_hi3[b0 & 0x0F];
    return rest>=3 && s[1]>=lo && s[1]<=hi && (s[2] & 0xC0)==0x80 ? 3 : 0;
  }
  if( b0<0xF5 ){
    unsigned lo = b0==0xF0 ? 0x90 : 0x80, hi = second_hi4[b0 & 0x07];
    return rest>=4 && s[1]>=lo && s[1]<=hi && (s[2] & 0xC0)==0x80
        && (s[3] & 0xC0)==0x80 ? 4 : 0;
  }
  return 0;                                           /* F5-FF */
}

/*
** The ASCII bytes before the first non-ASCII one of the word w (which has
** one), so that text with short ASCII runs (Latin) does not give the word
** it read away and re-read it byte by byte. The first byte in memory is
** the low one on a little-endian machine, the high one on a big-endian.
*/
static inline size_t ascii_prefix(uint64_t w){
  uint64_t high = w & 0x8080808080808080ull;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__==__ORDER_BIG_ENDIAN__
  return (size_t)__builtin_clzll(high) >> 3;
#else
  return (size_t)__builtin_ctzll(high) >> 3;
#endif
}

/*
** The scalar validators: ASCII eight bytes at a time, other characters
** with valid_char_len(); the first place it returns 0 is where the first
** ill-formed unit starts (utf8_decode_unit() would find it ill-formed
** there too: test/core_test.c checks the two agree on every string up to
** 3 bytes). The counting one adds one per character as it goes.
*/
size_t utf8_find_error_scalar(const unsigned char *s, size_t n){
  size_t i = 0;
  while( i<n ){
    size_t len;
    if( s[i]<0x80 ){
      while( i+8<=n ){
        uint64_t w;
        memcpy(&w, s+i, 8);
        if( w & 0x8080808080808080ull ){
          i += ascii_prefix(w);
          break;
        }
        i += 8;
      }
      while( i<n && s[i]<0x80 ) i++;
      continue;
    }
    len = valid_char_len(s+i, n-i);
    if( len==0 ) return i;
    i += len;
  }
  return n;
}

size_t utf8_find_error_count_scalar(const unsigned char *s, size_t n, size_t *chars){
  size_t i = 0, c = 0;
  while( i<n ){
    size_t len;
    if( s[i]<0x80 ){
      while( i+8<=n ){
        uint64_t w;
        memcpy(&w, s+i, 8);
        if( w & 0x8080808080808080ull ){
          size_t a = ascii_prefix(w);
          i += a;
          c += a;
          break;
        }
        i += 8;
        c += 8;
      }
      while( i<n && s[i]<0x80 ){ i++; c++; }
      continue;
    }
    len = valid_char_len(s+i, n-i);
    if( len==0 ) break;
    i += len;
    c++;
  }
  *chars = c;
  return i;
}

int utf8_is_valid(const unsigned char *s, size_t n){
  return utf8_find_error(s, n)==n;
}

/*
** Well-formed stretches are counted by the validator that finds their end,
** in the same pass (utf8_find_error_count); each ill-formed unit between
** them is one more.
*/
size_t utf8_count_units(const unsigned char *s, size_t n){
  size_t i = 0, count = 0;
  while( i<n ){
    size_t chars;
    size_t k = utf8_find_error_count(s+i, n-i, &chars);
    count += chars;
    i += k;
    if( i<n ){
      i += utf8_decode_unit(s+i, n-i).length;
      count++;
    }
  }
  return count;
}

utf8_errors utf8_scan_errors(const unsigned char *s, size_t n){
  utf8_errors e;
  size_t i = 0;
  e.count = 0;
  e.first = n;
  e.unit = unit_bad(0, UTF8_OK);
  while( i<n ){
    i += utf8_find_error(s+i, n-i);
    if( i<n ){
      utf8_unit u = utf8_decode_unit(s+i, n-i);
      if( e.count==0 ){ e.first = i; e.unit = u; }
      e.count++;
      i += u.length;
    }
  }
  return e;
}

size_t utf8_encode_scalar(uint32_t cp, unsigned char *out){
  if( cp<0x80 ){
    out[0] = (unsigned char)cp;
    return 1;
  }
  if( cp<0x800 ){
    out[0] = (unsigned char)(0xC0 | (cp>>6));
    out[1] = (unsigned char)(0x80 | (cp & 0x3F));
    return 2;
  }
  if( cp>=0xD800 && cp<=0xDFFF ) return 0;
  if( cp<0x10000 ){
    out[0] = (unsigned char)(0xE0 | (cp>>12));
    out[1] = (unsigned char)(0x80 | ((cp>>6) & 0x3F));
    out[2] = (unsigned char)(0x80 | (cp & 0x3F));
    return 3;
  }
  if( cp>0x10FFFF ) return 0;
  out[0] = (unsigned char)(0xF0 | (cp>>18));
  out[1] = (unsigned char)(0x80 | ((cp>>12) & 0x3F));
  out[2] = (unsigned char)(0x80 | ((cp>>6) & 0x3F));
  out[3] = (unsigned char)(0x80 | (cp & 0x3F));
  return 4;
}
