/*
** core/cjkmoji.h - UTF-8 that was decoded as a CJK charset, put back:
** "浣犲ソ" (the UTF-8 bytes of 你好 read as GBK) gives 你好 again.
** Plain C, no SQLite, no allocation; core/cjkmoji.c tells how it decides.
*/
#ifndef UTF8EXT_CJKMOJI_H
#define UTF8EXT_CJKMOJI_H

#include <stddef.h>

/* Values longer than this are left alone (a whole reading is priced). */
#define CJK_MOJI_MAX (64*1024)

/* How much cheaper, in 1/4 bits, the repair must read than the value. */
#define CJK_MOJI_MARGIN (10*4)

/* 0 when s[0..n) cannot be CJK mojibake: it has no CJK character (nor
** a halfwidth or fullwidth form), or no charset of the four encodes it
** into well-formed UTF-8 shorter than itself; else a mask of those that
** do. The cheap test (no model) before the reading. */
int utf8_cjk_mojibake_possible(const unsigned char *s, size_t n);

/*
** If well-formed s[0..n) reads as UTF-8 text decoded as gb18030,
** shift_jis, big5 or euc-kr, that charset (a utf8_charset), the original
** UTF-8 in out[0..*pnOut) (fewer than n bytes); else -1. scratch needs
** room for 2n + 4 bytes.
*/
int utf8_cjk_mojibake(const unsigned char *s, size_t n, unsigned char *out,
                      size_t *pnOut, unsigned char *scratch);

#endif
