/*
** core/c1moji.h - Windows-1252 text that was read as Latin-1, put back:
** its quotes, dashes and euro signs became C1 controls (“ as U+0093),
** which no real text holds. Plain C, no SQLite, no allocation;
** core/c1moji.c tells how it decides.
*/
#ifndef UTF8EXT_C1MOJI_H
#define UTF8EXT_C1MOJI_H

#include <stddef.h>

/* How much cheaper, in 1/4 bits, the repair must read than the value:
** nothing, for the shape is the evidence (a value all Latin-1 with a C1
** control that Windows-1252 has a character for); the model only keeps
** out a reading that reads worse. */
#define C1_MOJI_MARGIN 0

/* Values longer than this are left alone (a whole reading is priced). */
#define C1_MOJI_MAX (64*1024)

/*
** If well-formed s[0..n) reads as Windows-1252 text decoded as Latin-1,
** 1 and the text in out[0..*pnOut) (out needs room for 2n bytes: a C1
** control of two bytes may become a character of three); else 0.
*/
int utf8_c1_mojibake(const unsigned char *s, size_t n, unsigned char *out,
                     size_t *pnOut);

#endif
