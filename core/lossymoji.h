/*
** core/lossymoji.h - UTF-8 read as Windows-1252 by a decoder that made
** each byte Windows-1252 leaves undefined (81 8D 8F 90 9D) a U+FFFD:
** "Ã�" for Á (C3 81). What can be read back is; each character whose
** bytes held such a byte is one U+FFFD. Plain C, no SQLite, no
** allocation; core/lossymoji.c tells how it decides.
*/
#ifndef UTF8EXT_LOSSYMOJI_H
#define UTF8EXT_LOSSYMOJI_H

#include <stddef.h>

/* How much cheaper, in 1/4 bits, the repair must read than the value. */
#define LOSSY_MOJI_MARGIN (10*4)

/*
** Where no character is read back whole, how much cheaper the likeliest
** text the lost bytes could have made must read than the value without
** its U+FFFDs. test/mojibake_eval.py's lossy row (seeds 20240917, 7, 11):
** 98.3%, 98.3%, 98.6% exact at 15 bits, none wrong (99.4% at 10 bits,
** 97.5% at 20, 82.7% without such values); of 351,320 lines and words
** of the corpus with a U+FFFD put after or in place of one of their
** characters, none changed at 15 bits or 20, 6 at 10 ("Ä" U+FFFD "a"),
** 2,431 with no test at all.
*/
#define LOSSY_MOJI_ALONE (15*4)

/* Values longer than this are left alone (a whole reading is priced). */
#define LOSSY_MOJI_MAX (64*1024)

/* 0 when s[0..n) has no U+FFFD: then it is no such value. */
int utf8_lossy_mojibake_possible(const unsigned char *s, size_t n);

/*
** If well-formed s[0..n) reads as UTF-8 read so, 1 and the text in
** out[0..*pnOut) (fewer than n bytes); else 0. scratch needs room for 3n
** bytes.
*/
int utf8_lossy_mojibake(const unsigned char *s, size_t n, unsigned char *out,
                        size_t *pnOut, unsigned char *scratch);

#endif
