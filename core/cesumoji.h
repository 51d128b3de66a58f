/*
** core/cesumoji.h - CESU-8 read as Windows-1252, put back: an emoji that
** Java or Oracle wrote as CESU-8 (each half of its surrogate pair as
** three bytes, 😀 as ED A0 BD ED B8 80) and that was then read as
** Windows-1252 ("í ½í¸€"). Plain C, no SQLite, no allocation;
** core/cesumoji.c tells how it decides.
*/
#ifndef UTF8EXT_CESUMOJI_H
#define UTF8EXT_CESUMOJI_H

#include <stddef.h>

/* How much cheaper, in 1/4 bits, the repair must read than the value. */
#define CESU_MOJI_MARGIN (10*4)

/* Values longer than this are left alone (a whole reading is priced). */
#define CESU_MOJI_MAX (64*1024)

/* 0 when s[0..n) cannot be such a value (it has no í then one of U+00A0
** to U+00AF, which is what ED and the second byte of a surrogate half
** become); the cheap test. */
int utf8_cesu_mojibake_possible(const unsigned char *s, size_t n);

/*
** If well-formed s[0..n) reads as CESU-8 decoded as Windows-1252, 1 and
** the text in out[0..*pnOut) (fewer than n bytes); else 0. scratch needs
** room for n bytes.
*/
int utf8_cesu_mojibake(const unsigned char *s, size_t n, unsigned char *out,
                       size_t *pnOut, unsigned char *scratch);

#endif
