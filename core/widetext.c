/*
** core/widetext.c - UTF-16 and UTF-32 text without a byte-order mark that
** was stored as if it were UTF-8: "Hi" in UTF-16LE is 48 00 69 00, which
** is well-formed UTF-8 (two letters and two U+0000) and passes every
** check. utf8_moji_wide() names such a value and decodes it.
**
** THE RULE (docs/mojibake.md, "UTF-16 and UTF-32 without a BOM")
**
** Only an exact and confident reading is taken; a value that is text
** with a few NULs in it is never one:
**
**   - the length is a multiple of the unit (2 or 4 bytes), two units at
**     least;
**   - every unit decodes (UTF-16: surrogates paired; UTF-32: a scalar
**     value), none is U+0000, DEL, a C1 control or a C0 control other
**     than TAB, LF and CR, none is U+FFFE or U+FFFF (a reversed BOM);
**   - the zero bytes are where text of mostly ASCII and Latin-1 puts them:
**     at least two thirds of the characters are U+0001 to U+00FF (their
**     high byte or bytes zero; a surrogate pair counts as one). Text with NULs in it fails here: read in pairs,
**     its letters make units like U+6568 ("he").
**
** UTF-32 is tried first (its units, read as UTF-16, would hold U+0000),
** little-endian before big-endian; the rule lets only one byte order read
** a value, since the zeros of U+0001..U+00FF sit on one side.
*/
#include "mojibake.h"
#include "utf8.h"

#include <string.h>

/* One unit of w bytes at p, little- or big-endian. */
static uint32_t unit_at(const unsigned char *p, int w, int be){
  uint32_t u = 0;
  int k;
  for(k=0; k<w; k++) u |= (uint32_t)p[be ? w-1-k : k] << (8*k);
  return u;
}

/* A character that text holds: no NUL, no C0 control but TAB LF CR, no
** C1 control, no reversed BOM. */
static int text_char(uint32_t c){
  if( c<0x20 ) return c=='\t' || c=='\n' || c=='\r';
  return !(c>=0x7F && c<0xA0) && c!=0xFFFE && c!=0xFFFF;
}

/*
** Read s[0..n) as UTF-16 or UTF-32 (w 2 or 4) of the given byte order.
** Returns the UTF-8 length, or 0 when the rule above says no; writes the
** UTF-8 into out when out is not NULL.
*/
static size_t read_wide(const unsigned char *s, size_t n, int w, int be,
                        unsigned char *out){
  size_t i, o = 0, units = 0, narrow = 0;
  if( n%(size_t)w || n<2*(size_t)w ) return 0;
  for(i=0; i<n; i+=(size_t)w){
    uint32_t c = unit_at(s+i, w, be);
    unsigned char buf[4];
    if( w==2 && c>=0xD800 && c<=0xDBFF ){
      uint32_t lo;
      if( i+4>n ) return 0;
      lo = unit_at(s+i+2, 2, be);
      if( lo<0xDC00 || lo>0xDFFF ) return 0;
      c = 0x10000 + ((c-0xD800)<<10) + (lo-0xDC00);
      i += 2;
    }else if( (c>=0xD800 && c<=0xDFFF) || c>0x10FFFF ){
      return 0;                          /* a lone low surrogate, or no scalar */
    }
    if( !text_char(c) ) return 0;
    units++;
    if( c<=0xFF ) narrow++;
    if( out ) utf8_encode_scalar(c, out+o);
    o += utf8_encode_scalar(c, buf);
  }
  if( narrow*3 < units*2 ) return 0;
  return o;
}

utf8_moji_charset utf8_moji_wide(const unsigned char *s, size_t n,
                                 unsigned char *out, size_t *outlen){
  static const struct { utf8_moji_charset cs; int w, be; } order[4] = {
    { UTF8_MOJI_UTF32LE, 4, 0 }, { UTF8_MOJI_UTF32BE, 4, 1 },
    { UTF8_MOJI_UTF16LE, 2, 0 }, { UTF8_MOJI_UTF16BE, 2, 1 },
  };
  int k;
  /* text without a zero byte (nearly all) costs one memchr */
  if( n<4 || n%2 || memchr(s, 0, n)==0 ) return UTF8_MOJI_COUNT;
  for(k=0; k<4; k++){
    size_t len = read_wide(s, n, order[k].w, order[k].be, 0);
    if( len==0 ) continue;
    if( out ) read_wide(s, n, order[k].w, order[k].be, out);
    *outlen = len;
    return order[k].cs;
  }
  return UTF8_MOJI_COUNT;
}
