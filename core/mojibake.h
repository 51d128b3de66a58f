/*
** core/mojibake.h - find and undo mojibake: UTF-8 text that was decoded
** with the wrong charset (Windows-1252, Latin-1, Windows-1251,
** Windows-1250 or Mac OS Roman) and encoded again, once or more. Plain C, no SQLite, no allocation. The rule that decides is at
** the top of core/mojibake.c and in docs/mojibake.md.
*/
#ifndef UTF8EXT_CORE_MOJIBAKE_H
#define UTF8EXT_CORE_MOJIBAKE_H

#include <stddef.h>
#include <stdint.h>

/* The misreadings the engine knows. */
typedef enum utf8_moji_charset {
  UTF8_MOJI_CP1252 = 0,   /* Windows-1252, 81 8D 8F 90 9D as U+0081.. */
  UTF8_MOJI_LATIN1,       /* ISO-8859-1: each byte its own code point */
  UTF8_MOJI_CP1251,       /* Windows-1251 (Cyrillic), 98 as U+0098 */
  UTF8_MOJI_CP1250,       /* Windows-1250 (Central European), 81 83 88 90
                          ** 98 as the C1 controls of the same value */
  UTF8_MOJI_MACROMAN,     /* Mac OS Roman, DB as the euro sign */
  UTF8_MOJI_COUNT,        /* (the single-byte charsets are those above) */
  UTF8_MOJI_UTF16LE,      /* UTF-16 or UTF-32 without a byte-order mark */
  UTF8_MOJI_UTF16BE,      /* stored as if it were UTF-8 (utf8_moji_wide) */
  UTF8_MOJI_UTF32LE,
  UTF8_MOJI_UTF32BE,
  UTF8_MOJI_GB18030,      /* UTF-8 decoded as a CJK charset, undone whole */
  UTF8_MOJI_SHIFT_JIS,    /* by core/reencode.c (utf8_cjk_mojibake) */
  UTF8_MOJI_BIG5,
  UTF8_MOJI_EUC_KR,
  UTF8_MOJI_CP1252_AS_LATIN1, /* Windows-1252 read as Latin-1 (core/c1moji.c) */
  UTF8_MOJI_CESU8_AS_CP1252,  /* CESU-8 read as Windows-1252 (core/cesumoji.c) */
  UTF8_MOJI_CP1252_LOSSY,     /* cp1252, undefined bytes lost (core/lossymoji.c) */
  UTF8_MOJI_CP437,            /* IBM437, read whole by core/reencode.c */
  UTF8_MOJI_CP1257,           /* Windows-1257 (Baltic), the same */
  UTF8_MOJI_ISO8859_2         /* ISO-8859-2 (Central European), the same */
} utf8_moji_charset;

/* The character of byte b (0-255) in charset cs; every byte has one (the
** bytes a Windows charset leaves undefined are the C1 controls of the
** same value, as WHATWG maps them). */
uint32_t utf8_moji_decode_byte(utf8_moji_charset cs, unsigned b);

/* The byte that charset cs (a single-byte one) reads as character cp, or
** -1: the engine's reverse mapping, from its table (searched 0) or from
** the search that table is built from (searched 1). Windows-1252 and
** Latin-1 also give any character from 80 to FF its own value as a byte.
** For the tests. */
int utf8_moji_encode_char(utf8_moji_charset cs, uint32_t cp, int searched);

/* The most misreadings undone in one value. */
#define UTF8_MOJI_MAX_DEPTH 4

/* The charset's name as utf8_mojibake() spells it ("cp1252", "latin1",
** "cp1251", "cp1250", "macroman"). */
const char *utf8_moji_name(utf8_moji_charset cs);

/*
** Undo the misreadings of s[0..n). s must be well-formed UTF-8 (the caller
** checks; ill-formed input gives 0 and out untouched). Returns how many
** misreadings were undone (0 when none), with the charset of each in
** chain[], outermost first (the one undone first), innermost last. When the
** result is not 0, out holds the repaired text and *outlen its length.
** out must have room for n bytes (undoing only shrinks the text); the
** passes after the first work in it in place.
*/
int utf8_unmojibake(const unsigned char *s, size_t n, unsigned char *out,
                    size_t *outlen, utf8_moji_charset chain[UTF8_MOJI_MAX_DEPTH]);

/*
** The cheap test: 0 when s[0..n) cannot hold mojibake of the charsets
** above (no lead character a misreading makes followed by one it makes of
** a continuation byte: rules 1, 8 and 9 of core/mojibake.c), 1 when it
** may. utf8_unmojibake() starts with it. utf8_moji_possible() skips clean
** 64-byte blocks with the vector scan the CPU runs (core/mojiscan.h);
** utf8_moji_possible_plain() is the same answer byte by byte, the
** reference the tests hold it to.
*/
int utf8_moji_possible(const unsigned char *s, size_t n);
int utf8_moji_possible_plain(const unsigned char *s, size_t n);

/*
** The block scan of core/mojiscan.h: the offset of the first 64-byte
** block where mojibake may start, or of the tail too short for a block.
** utf8_moji_scan() is the one the dispatcher chose; the others are there
** for the tests and the benchmark to run side by side.
*/
size_t utf8_moji_scan(const unsigned char *s, size_t n);
size_t utf8_moji_scan_generic(const unsigned char *s, size_t n);
size_t utf8_moji_scan_avx2(const unsigned char *s, size_t n);
size_t utf8_moji_scan_avx512(const unsigned char *s, size_t n);

/* utf8_moji_possible() with a given scan (the tests run each). */
int utf8_moji_possible_using(size_t (*scan)(const unsigned char*, size_t),
                             const unsigned char *s, size_t n);

/*
** UTF-16 or UTF-32 text without a byte-order mark in s[0..n) (well-formed
** UTF-8 or not), by the rule at the top of core/widetext.c. Returns
** UTF8_MOJI_UTF16LE .. UTF8_MOJI_UTF32BE with *outlen the length of its
** UTF-8, written to out when out is not NULL (call with NULL first to
** size it); UTF8_MOJI_COUNT when s is not such text.
*/
utf8_moji_charset utf8_moji_wide(const unsigned char *s, size_t n,
                                 unsigned char *out, size_t *outlen);

#endif /* UTF8EXT_CORE_MOJIBAKE_H */
