/*
** core/context.h - a short, printable excerpt of a byte string around one
** of its units, for showing a person where an error is.
**
** Plain C, no SQLite, no allocation: like the rest of core/, the caller
** measures first (out==NULL) and then writes into a buffer it owns.
*/
#ifndef UTF8EXT_CORE_CONTEXT_H
#define UTF8EXT_CORE_CONTEXT_H

#include <stddef.h>

/*
** The units of s[0..n) from chars_each_side units before the unit at
** err_offset to chars_each_side units after it, that unit included, made
** printable:
**
**   - every ill-formed unit becomes U+FFFD (as utf8_fix() does);
**   - the C0 controls U+0000..U+001F become the Control Pictures
**     U+2400..U+241F (so a tab is shown as U+2409, a newline as U+240A);
**   - DEL (U+007F) becomes U+2421, its Control Picture;
**   - the C1 controls U+0080..U+009F, which have no pictures, become U+FFFD:
**     they never belong in text, and a terminal may act on them (U+009B is
**     CSI);
**   - the bidirectional controls, which reorder the text around them on a
**     terminal (U+061C, U+200E, U+200F, U+202A..U+202E, U+2066..U+2069),
**     are written out as ASCII: "<U+202E>", so a value cannot reorder the
**     report it appears in;
**   - every other character is copied unchanged.
**
** A "unit" is a character or an ill-formed unit, as utf8_decode_unit()
** cuts them, so an ill-formed unit counts as one character on either side.
** err_offset must be the offset of a unit (utf8_scan_errors() gives one) or
** n; the excerpt is cut short at the ends of s.
**
** Writes the excerpt to out and returns its length; with out==NULL only
** returns the length. The result is well-formed UTF-8 of at most 8 bytes
** per unit, so at most UTF8_CONTEXT_MAX(chars_each_side) bytes.
*/
size_t utf8_context(const unsigned char *s, size_t n, size_t err_offset,
                    size_t chars_each_side, unsigned char *out);

/* An upper bound of utf8_context()'s result for chars_each_side==k. */
#define UTF8_CONTEXT_MAX(k) (8*(2*(size_t)(k)+1))

/* True for the bidirectional controls utf8_context() writes out as ASCII. */
static inline int utf8_is_bidi_control(unsigned long c){
  return c==0x061C || c==0x200E || c==0x200F
      || (c>=0x202A && c<=0x202E) || (c>=0x2066 && c<=0x2069);
}

#endif /* UTF8EXT_CORE_CONTEXT_H */
