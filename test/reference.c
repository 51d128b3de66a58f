/*
** test/reference.c - the reference decoder: the nine alternatives of RFC
** 3629's ABNF as rows of byte ranges, matched one by one. A unit is the
** longest prefix of any row that the input matches (at least one byte);
** it is a character when it matches a whole row.
*/
#include "reference.h"

#include <string.h>

typedef struct { unsigned char lo, hi; } range;
typedef struct { int len; range r[4]; } alternative;

/* RFC 3629 section 4, one row per alternative of UTF8-1 .. UTF8-4. */
static const alternative abnf[] = {
  { 1, { {0x00,0x7F} } },                                      /* UTF8-1 */
  { 2, { {0xC2,0xDF}, {0x80,0xBF} } },                         /* UTF8-2 */
  { 3, { {0xE0,0xE0}, {0xA0,0xBF}, {0x80,0xBF} } },            /* UTF8-3 */
  { 3, { {0xE1,0xEC}, {0x80,0xBF}, {0x80,0xBF} } },
  { 3, { {0xED,0xED}, {0x80,0x9F}, {0x80,0xBF} } },
  { 3, { {0xEE,0xEF}, {0x80,0xBF}, {0x80,0xBF} } },
  { 4, { {0xF0,0xF0}, {0x90,0xBF}, {0x80,0xBF}, {0x80,0xBF} } }, /* UTF8-4 */
  { 4, { {0xF1,0xF3}, {0x80,0xBF}, {0x80,0xBF}, {0x80,0xBF} } },
  { 4, { {0xF4,0xF4}, {0x80,0x8F}, {0x80,0xBF}, {0x80,0xBF} } },
};
#define N_ALT (sizeof(abnf)/sizeof(abnf[0]))

enum { R_OK, R_UNEXPECTED, R_OVERLONG, R_SURROGATE, R_TOO_LARGE, R_MISSING,
       R_TRUNCATED };

ref_unit ref_decode(const unsigned char *s, size_t n){
  ref_unit u = { 1, 0, 0 };
  size_t best = 0, a;
  unsigned char b0 = s[0];
  for(a=0; a<N_ALT; a++){
    size_t m = 0;
    while( m<(size_t)abnf[a].len && m<n
        && s[m]>=abnf[a].r[m].lo && s[m]<=abnf[a].r[m].hi ) m++;
    if( m==(size_t)abnf[a].len ){
      /* a whole character: take the payload bits of every byte */
      static const unsigned char lead_mask[5] = { 0, 0x7F, 0x1F, 0x0F, 0x07 };
      uint32_t cp = b0 & lead_mask[m];
      size_t k;
      for(k=1; k<m; k++) cp = cp*64 + (s[k] - 0x80);
      u.length = m;
      u.codepoint = cp;
      u.reason = R_OK;
      return u;
    }
    if( m>best ) best = m;
  }
  u.length = best ? best : 1;
  if( b0>=0x80 && b0<=0xBF ) u.reason = R_UNEXPECTED;
  else if( b0==0xC0 || b0==0xC1 ) u.reason = R_OVERLONG;
  else if( b0>=0xF5 ) u.reason = R_TOO_LARGE;
  else if( u.length==1 && n>=2 && s[1]>=0x80 && s[1]<=0xBF ){
    /* a lead byte whose first continuation is out of its row's range */
    if( b0==0xE0 || b0==0xF0 ) u.reason = R_OVERLONG;
    else if( b0==0xED ) u.reason = R_SURROGATE;
    else u.reason = R_TOO_LARGE;    /* F4 90-BF */
  }
  else if( u.length==n ) u.reason = R_TRUNCATED;
  else u.reason = R_MISSING;
  return u;
}

size_t ref_first_error(const unsigned char *s, size_t n){
  size_t i = 0;
  while( i<n ){
    ref_unit u = ref_decode(s+i, n-i);
    if( u.reason ) return i;
    i += u.length;
  }
  return n;
}

size_t ref_count_units(const unsigned char *s, size_t n){
  size_t i = 0, c = 0;
  while( i<n ){ i += ref_decode(s+i, n-i).length; c++; }
  return c;
}

size_t ref_fix(const unsigned char *s, size_t n, const unsigned char *r,
               size_t rlen, int rule, unsigned char *out){
  size_t i = 0, o = 0;
  int prev_bad = 0;
  while( i<n ){
    ref_unit u = ref_decode(s+i, n-i);
    if( u.reason==R_OK ){
      memcpy(out+o, s+i, u.length);
      o += u.length;
      prev_bad = 0;
    }else{
      size_t reps = rule==2 ? u.length : (rule==1 && prev_bad) ? 0 : 1;
      while( reps-- ){ memcpy(out+o, r, rlen); o += rlen; }
      prev_bad = 1;
    }
    i += u.length;
  }
  return o;
}

size_t ref_encode(uint32_t cp, unsigned char *out){
  if( cp<=0x7F ){ out[0] = (unsigned char)cp; return 1; }
  if( cp<=0x7FF ){
    out[0] = (unsigned char)(0xC0 + cp/64); out[1] = (unsigned char)(0x80 + cp%64);
    return 2;
  }
  if( cp<=0xFFFF ){
    out[0] = (unsigned char)(0xE0 + cp/4096);
    out[1] = (unsigned char)(0x80 + cp/64%64);
    out[2] = (unsigned char)(0x80 + cp%64);
    return 3;
  }
  out[0] = (unsigned char)(0xF0 + cp/262144);
  out[1] = (unsigned char)(0x80 + cp/4096%64);
  out[2] = (unsigned char)(0x80 + cp/64%64);
  out[3] = (unsigned char)(0x80 + cp%64);
  return 4;
}

/*
** Windows-1252 80-9F as (byte, code point) pairs from the WHATWG index;
** the five bytes it leaves undefined map to themselves.
*/
static uint32_t cp1252(unsigned char b){
  static const uint32_t pairs[][2] = {
    {0x80,0x20AC},{0x82,0x201A},{0x83,0x0192},{0x84,0x201E},{0x85,0x2026},
    {0x86,0x2020},{0x87,0x2021},{0x88,0x02C6},{0x89,0x2030},{0x8A,0x0160},
    {0x8B,0x2039},{0x8C,0x0152},{0x8E,0x017D},{0x91,0x2018},{0x92,0x2019},
    {0x93,0x201C},{0x94,0x201D},{0x95,0x2022},{0x96,0x2013},{0x97,0x2014},
    {0x98,0x02DC},{0x99,0x2122},{0x9A,0x0161},{0x9B,0x203A},{0x9C,0x0153},
    {0x9E,0x017E},{0x9F,0x0178},
  };
  size_t i;
  for(i=0; i<sizeof(pairs)/sizeof(pairs[0]); i++){
    if( pairs[i][0]==b ) return pairs[i][1];
  }
  return b;
}

/* The three bytes ED xx yy as a UTF-16 code unit, or 0 if no surrogate. */
static uint32_t surrogate_at(const unsigned char *s, size_t n){
  if( n<3 || s[0]!=0xED || s[1]<0xA0 || s[1]>0xBF ) return 0;
  if( s[2]<0x80 || s[2]>0xBF ) return 0;
  return 0xD000 + (uint32_t)(s[1]-0x80)*64 + (s[2]-0x80);
}

size_t ref_recode(const unsigned char *s, size_t n, int enc, unsigned char *out){
  size_t i = 0, o = 0, k;
  while( i<n ){
    ref_unit u = ref_decode(s+i, n-i);
    if( u.reason==R_OK ){
      memcpy(out+o, s+i, u.length);
      o += u.length;
      i += u.length;
      continue;
    }
    if( enc==0 || enc==1 ){
      for(k=0; k<u.length; k++){
        o += ref_encode(enc==0 ? cp1252(s[i+k]) : s[i+k], out+o);
      }
      i += u.length;
      continue;
    }
    if( enc==3 && n-i>=2 && s[i]==0xC0 && s[i+1]==0x80 ){
      out[o++] = 0;
      i += 2;
      continue;
    }
    {
      uint32_t hi = surrogate_at(s+i, n-i);
      uint32_t lo = n-i>=6 ? surrogate_at(s+i+3, n-i-3) : 0;
      if( hi>=0xD800 && hi<=0xDBFF && lo>=0xDC00 && lo<=0xDFFF ){
        o += ref_encode(0x10000 + (hi-0xD800)*1024 + (lo-0xDC00), out+o);
        i += 6;
        continue;
      }
    }
    o += ref_encode(0xFFFD, out+o);
    i += u.length;
  }
  return o;
}
