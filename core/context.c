/*
** core/context.c - utf8_context(): a printable excerpt around one unit.
**
** Walking forward is the segmentation itself (utf8_decode_unit). Walking
** backward uses one fact about it: a unit's bytes after its first are all
** continuation bytes (80-BF), so every other byte starts a unit. To find
** the unit that ends at p, back up to the nearest such byte (or to the
** start of the input) and decode forward from there to p.
*/
#include "context.h"
#include "utf8.h"

/* The replacement character U+FFFD. */
static const unsigned char replacement[3] = { 0xEF, 0xBF, 0xBD };

/*
** Start of the unit that ends at p. p>0 and p is a unit boundary.
*/
static size_t unit_before(const unsigned char *s, size_t n, size_t p){
  size_t q = p-1;
  size_t last;
  while( q>0 && (s[q] & 0xC0)==0x80 ) q--;
  last = q;
  while( q<p ){
    last = q;
    q += utf8_decode_unit(s+q, n-q).length;
  }
  return last;
}

/*
** Write the printable form of the unit u, whose bytes are s[0..u.length),
** at out+o (when out is not NULL) and return the bytes it takes.
*/
static size_t put_unit(const unsigned char *s, utf8_unit u,
                       unsigned char *out, size_t o){
  unsigned char buf[8];
  const unsigned char *z = s;
  size_t len = u.length;
  size_t k;

  if( u.reason==UTF8_OK && utf8_is_bidi_control(u.codepoint) ){
    /* "<U+202E>": no picture exists, and U+FFFD would hide which it was */
    static const char hex[] = "0123456789ABCDEF";
    buf[0] = '<'; buf[1] = 'U'; buf[2] = '+';
    for(k=0; k<4; k++) buf[3+k] = (unsigned char)hex[(u.codepoint>>(12-4*k)) & 15];
    buf[7] = '>';
    z = buf;
    len = 8;
  }else if( u.reason!=UTF8_OK || (u.codepoint>=0x80 && u.codepoint<=0x9F) ){
    z = replacement;                    /* ill-formed unit, C1 control */
    len = 3;
  }else if( u.codepoint<0x20 || u.codepoint==0x7F ){
    /* U+2400+c (C0) or U+2421 (DEL): E2 90 80+c, E2 90 A1 */
    buf[0] = 0xE2;
    buf[1] = 0x90;
    buf[2] = (unsigned char)(u.codepoint==0x7F ? 0xA1 : 0x80+u.codepoint);
    z = buf;
    len = 3;
  }
  if( out ){
    for(k=0; k<len; k++) out[o+k] = z[k];
  }
  return len;
}

size_t utf8_context(const unsigned char *s, size_t n, size_t err_offset,
                    size_t chars_each_side, unsigned char *out){
  size_t i = err_offset;
  size_t k, o = 0;
  size_t after = 0;     /* units written from err_offset on */

  if( err_offset>n ) return 0;
  for(k=0; k<chars_each_side && i>0; k++) i = unit_before(s, n, i);
  /* The units before err_offset, the unit there, and those after it. */
  while( i<n && (i<err_offset || after++<=chars_each_side) ){
    utf8_unit u = utf8_decode_unit(s+i, n-i);
    o += put_unit(s+i, u, out, o);
    i += u.length;
  }
  return o;
}
