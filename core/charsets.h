/*
** core/charsets.h - decoders for legacy charsets: the WHATWG Encoding
** Standard's single-byte encodings and its gbk, gb18030, Big5, EUC-JP,
** Shift_JIS and EUC-KR decoders (their error handling included), plus
** IBM437, IBM850 and ISO-8859-1 proper.
**
** Plain C, no SQLite, no allocation. As utf8_recode(): pointer and length
** in, out==NULL only measures, else out gets the UTF-8; the return value
** is the output length (saturating at SIZE_MAX).
**
** To decode with a charset named by a string:
**
**   int cs = utf8_charset_lookup(label, strlen(label));  (-1: unknown)
**   size_t len = utf8_charset_decode(s, n, (utf8_charset)cs, NULL);
**   ... allocate len bytes, then ...
**   utf8_charset_decode(s, n, (utf8_charset)cs, out);
**
** utf8_charset_recode() is the 'units' reading of mostly-UTF-8 text.
*/
#ifndef UTF8EXT_CHARSETS_H
#define UTF8EXT_CHARSETS_H

#include <stddef.h>
#include <stdint.h>

/* The order of tools/gen-charsets.py's SINGLE then MULTI lists. */
typedef enum utf8_charset {
  UTF8_CS_IBM866 = 0,
  UTF8_CS_ISO8859_2, UTF8_CS_ISO8859_3, UTF8_CS_ISO8859_4, UTF8_CS_ISO8859_5,
  UTF8_CS_ISO8859_6, UTF8_CS_ISO8859_7, UTF8_CS_ISO8859_8, UTF8_CS_ISO8859_10,
  UTF8_CS_ISO8859_13, UTF8_CS_ISO8859_14, UTF8_CS_ISO8859_15,
  UTF8_CS_ISO8859_16,
  UTF8_CS_KOI8_R, UTF8_CS_KOI8_U, UTF8_CS_MACINTOSH, UTF8_CS_WINDOWS_874,
  UTF8_CS_WINDOWS_1250, UTF8_CS_WINDOWS_1251, UTF8_CS_WINDOWS_1252,
  UTF8_CS_WINDOWS_1253, UTF8_CS_WINDOWS_1254, UTF8_CS_WINDOWS_1255,
  UTF8_CS_WINDOWS_1256, UTF8_CS_WINDOWS_1257, UTF8_CS_WINDOWS_1258,
  UTF8_CS_X_MAC_CYRILLIC, UTF8_CS_IBM437, UTF8_CS_IBM850, UTF8_CS_LATIN1,
  /* multi-byte */
  UTF8_CS_GBK, UTF8_CS_GB18030, UTF8_CS_BIG5, UTF8_CS_EUC_JP,
  UTF8_CS_SHIFT_JIS, UTF8_CS_EUC_KR,
  UTF8_CS_COUNT
} utf8_charset;

#define UTF8_CS_FIRST_MULTI UTF8_CS_GBK

/*
** The charset a label names (WHATWG's labels, ASCII case-insensitive, no
** whitespace trimmed; plus cp437/ibm437, cp850/ibm850, cp932, cp936,
** cp949 and latin-1), or -1. Every label of ISO-8859-1 ('latin1',
** 'iso-8859-1', 'l1', ...) names ISO-8859-1 proper, not WHATWG's
** windows-1252. A NUL byte in label[0..n) never matches.
*/
int utf8_charset_lookup(const char *label, size_t n);

/* The canonical (lower-case) name of cs: 'windows-1251', 'shift_jis'... */
const char *utf8_charset_name(utf8_charset cs);

/* 1 for gbk, gb18030, big5, euc-jp, shift_jis and euc-kr; 0 otherwise. */
int utf8_charset_is_multibyte(utf8_charset cs);

/*
** Decode all of s[0..n) as cs, exactly as the WHATWG decoder does (errors
** become U+FFFD; an ASCII byte that cannot end a multi-byte character is
** not consumed by it and is decoded on its own).
*/
size_t utf8_charset_decode(const unsigned char *s, size_t n, utf8_charset cs,
                           unsigned char *out);

/*
** One character of the multi-byte cs at s[0..n), n>0, as its decoder reads
** it: cp[0] gets the code point (U+FFFD for an error), cp[1] a second one
** (Big5's four two-code-point characters) or 0. Returns the bytes taken,
** at least 1. s[0] must be >= 0x80 (an ASCII byte is itself in all).
*/
size_t utf8_charset_step(const unsigned char *s, size_t n, utf8_charset cs,
                         uint32_t cp[2]);

/*
** Mostly-UTF-8 s: well-formed UTF-8 is copied. A single-byte cs decodes
** the bytes of each ill-formed unit (as utf8_recode() does cp1252). A
** multi-byte cs decodes, for each ill-formed unit, the stretch that begins
** at the start of the run of bytes >= 0x80 holding that unit (not before
** the end of the previous stretch) and ends at the first byte < 0x80 that
** begins a character of cs: a character is never cut in two, its ASCII
** trail bytes (Shift_JIS 83 5C, GB18030 81 30 81 30) included.
*/
size_t utf8_charset_recode(const unsigned char *s, size_t n, utf8_charset cs,
                           unsigned char *out);

/* The generated tables (core/charsets_tables.c). */
typedef struct utf8_cs_label { const char *zLabel; int cs; } utf8_cs_label;
extern const uint16_t utf8_cs_single[UTF8_CS_FIRST_MULTI][128];
extern const uint32_t utf8_cs_jis0208_first, utf8_cs_jis0208_count;
extern const uint16_t utf8_cs_jis0208[];
extern const uint32_t utf8_cs_jis0212_first, utf8_cs_jis0212_count;
extern const uint16_t utf8_cs_jis0212[];
extern const uint32_t utf8_cs_gb18030_first, utf8_cs_gb18030_count;
extern const uint16_t utf8_cs_gb18030[];
extern const uint32_t utf8_cs_euckr_first, utf8_cs_euckr_count;
extern const uint16_t utf8_cs_euckr[];
extern const uint32_t utf8_cs_big5_first, utf8_cs_big5_count;
extern const uint16_t utf8_cs_big5[];
extern const uint8_t utf8_cs_big5_plane2[];
extern const uint32_t utf8_cs_gb_ranges_count;
extern const uint32_t utf8_cs_gb_ranges_ptr[], utf8_cs_gb_ranges_cp[];
extern const char *const utf8_cs_names[UTF8_CS_COUNT];
extern const utf8_cs_label utf8_cs_labels[];
extern const unsigned utf8_cs_label_count;

#endif
