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

/*
** The bytes the decoder of cs reads as the code point cp: out[0..k) gets
** them, and the return value k is 1..4; 0 when no byte sequence of cs
** decodes to exactly cp (out[0] may then have been written). For every cp,
** utf8_charset_decode(out, k, cs, ...) gives cp alone, and every
** character a decoder reads (not an error) is encoded, but for gbk's
** four-byte characters (below). A surrogate, cp > 0x10FFFF or an invalid
** cs give 0. The U+FFFD of a decoding error is not a reading: only
** gb18030 encodes U+FFFD (84 31 A4 37). cp < 0x80 is the one byte cp in
** every charset (all of them read ASCII bytes as ASCII).
**
** Where several sequences decode to cp, the one WHATWG's encoder writes,
** else (it writes none, or one the decoder reads otherwise) the lowest:
**   single-byte: no code point has two bytes; windows-1252 and the other
**     WHATWG tables encode their C1 mappings (windows-1252 U+0081 -> 81),
**     latin1 is ISO-8859-1 proper (U+0080..U+00FF -> 80..FF).
**   gb18030: the two-byte index's first pointer (U+3000 -> A1 A1, U+20AC
**     -> A2 E3, not 80), else four bytes from the ranges (U+E7C7 -> 81 35
**     F4 37; U+E5E5 and GB18030-2022's 18 old PUA code points: none).
**   gbk: U+20AC -> 80, else the two-byte index as gb18030. The gbk
**     decoder also reads gb18030's four-byte sequences, but a code point
**     only they give is not encoded (0): gbk is the one- and two-byte
**     repertoire, as WHATWG's gbk encoder (ask UTF8_CS_GB18030 for more).
**   big5: WHATWG's pointer (none below 0xA1 0x40, the last for U+2550,
**     U+255E, U+2561, U+256A, U+5341, U+5345, else the first); HKSCS
**     characters only below A1 40: the lowest. The four pairs Big5 reads
**     as two code points (88 62, 88 64, 88 A3, 88 A5) are never written.
**   shift_jis: U+0080 -> 80, U+FF61..U+FF9F -> A1..DF, the user-defined
**     U+E000..U+E757 -> F0 40..F9 FC (WHATWG writes none), index jis0208's
**     first pointer outside ED 40..EF FC (NEC's copy of the IBM rows, as
**     WHATWG), else the lowest. U+00A5 and U+203E: 0 (WHATWG writes 5C
**     and 7E, which the decoder reads as ASCII); so is U+2212 (no
**     sequence reads as it; WHATWG writes U+FF0D's 81 7C).
**   euc-jp: U+FF61..U+FF9F -> 8E A1..DF, index jis0208's first pointer,
**     else JIS X 0212 (8F xx xx, which WHATWG never writes). U+00A5,
**     U+203E, U+2212: 0, as Shift_JIS.
**   euc-kr: the index's only pointer.
** Single-byte charsets: two table loads. Multi-byte: a binary search
** among the index's code points of the same cp>>8.
*/
size_t utf8_charset_encode(utf8_charset cs, uint32_t cp, unsigned char out[4]);

/*
** The byte classes of cp in the single-byte charsets (UTF8_CS_IBM866 ..
** UTF8_CS_LATIN1, enum values 0 .. UTF8_CS_FIRST_MULTI-1): bit cs of
** mask[k] is set when utf8_charset_encode(cs, cp) writes one byte of class
** k: 0 ASCII 00-7F, 1 UTF-8 continuation 80-BF, 2 two-byte lead C2-DF,
** 3 three-byte lead E0-EF, 4 four-byte lead F0-F4. A byte C0, C1 or
** F5-FF, and a cp cs cannot encode, are in no mask. So cp < 0x80 gives
** mask[0] = UTF8_CS_SINGLE_MASK (all 30 bits), the rest 0. Any cp is
** accepted (a surrogate, above 0x10FFFF: all five 0). Two table loads
** and a copy of 20 bytes.
*/
#define UTF8_CS_SINGLE_MASK ((1u<<UTF8_CS_FIRST_MULTI)-1u)
void utf8_charset_byteclass(uint32_t cp, uint32_t mask[5]);

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
extern const uint8_t utf8_cs_sb_stage1[512];
extern const uint16_t utf8_cs_sb_pages[][128];
extern const uint8_t utf8_cs_sb_rows[][UTF8_CS_FIRST_MULTI];
extern const uint8_t utf8_cs_sb_row_class[];
extern const uint32_t utf8_cs_sb_classes[][5];
extern const uint32_t utf8_cs_jis0208_rev_count, utf8_cs_jis0208_rev_blocks;
extern const uint16_t utf8_cs_jis0208_rev[], utf8_cs_jis0208_rev_start[];
extern const uint16_t utf8_cs_jis0208_sjis[];
extern const uint32_t utf8_cs_jis0212_rev_count, utf8_cs_jis0212_rev_blocks;
extern const uint16_t utf8_cs_jis0212_rev[], utf8_cs_jis0212_rev_start[];
extern const uint32_t utf8_cs_gb18030_rev_count, utf8_cs_gb18030_rev_blocks;
extern const uint16_t utf8_cs_gb18030_rev[], utf8_cs_gb18030_rev_start[];
extern const uint32_t utf8_cs_euckr_rev_count, utf8_cs_euckr_rev_blocks;
extern const uint16_t utf8_cs_euckr_rev[], utf8_cs_euckr_rev_start[];
extern const uint32_t utf8_cs_big5_rev_count, utf8_cs_big5_rev_blocks;
extern const uint16_t utf8_cs_big5_rev[], utf8_cs_big5_rev_start[];
extern const char *const utf8_cs_names[UTF8_CS_COUNT];
extern const utf8_cs_label utf8_cs_labels[];
extern const unsigned utf8_cs_label_count;

#endif
