/*
** core/utf8.h - the utf8ext engine: validate, decode, repair and recode
** UTF-8 exactly as RFC 3629 section 4 and Unicode 3.9 (Table 3-7) define it.
**
** Plain C, no SQLite. Every function takes a pointer and a length (a NUL
** byte is an ordinary character) and none of them allocates: callers that
** need an output buffer ask for its size first (pass out==NULL), then
** allocate it themselves and call again.
**
** ONE SEGMENTATION
**
** Ill-formed input is cut into units by the Unicode "maximal subpart"
** practice (Unicode 3.9, Table 3-8): where no character can start or
** continue, the longest prefix of a well-formed sequence that begins there,
** and at least one byte, is one ill-formed unit. utf8_decode_unit() is the
** one place that decides this; everything else steps with it, so every
** function agrees with every other about where units start and end.
**
**     61 F1 80 80 E1 80 C2 62 80 63 80 BF 64
**     a  |F1 80 80|E1 80|C2| b |80| c |80|BF| d
*/
#ifndef UTF8EXT_CORE_UTF8_H
#define UTF8EXT_CORE_UTF8_H

#include <stddef.h>
#include <stdint.h>

/*
** Why a unit is ill-formed. UTF8_OK marks a well-formed character. The
** names are the vocabulary of docs/reference.md ("One segmentation, six
** reasons"); utf8_reason_text() spells them.
*/
typedef enum utf8_reason {
  UTF8_OK = 0,                  /* a well-formed character */
  UTF8_UNEXPECTED_CONTINUATION, /* a lone byte 80-BF */
  UTF8_OVERLONG,                /* C0, C1; E0 before 80-9F; F0 before 80-8F */
  UTF8_SURROGATE,               /* ED before A0-BF */
  UTF8_TOO_LARGE,               /* F5-FF; F4 before 90-BF */
  UTF8_MISSING_CONTINUATION,    /* valid start, then a byte that can't go on */
  UTF8_TRUNCATED                /* valid start, then the end of the input */
} utf8_reason;

#define UTF8_REASON_COUNT 7

/* The reason's name as docs/reference.md writes it ("overlong", ...); NULL for UTF8_OK. */
const char *utf8_reason_text(utf8_reason reason);

/*
** One unit: a character or an ill-formed unit.
*/
typedef struct utf8_unit {
  uint32_t codepoint; /* the scalar value when reason==UTF8_OK, else 0 */
  uint8_t length;     /* bytes in the unit, 1 to 4 */
  uint8_t reason;     /* a utf8_reason */
} utf8_unit;

/*
** Decode the unit that starts at s[0]. n must be at least 1. This is the
** definition of the segmentation; it reads at most 4 bytes and never past n.
*/
utf8_unit utf8_decode_unit(const unsigned char *s, size_t n);

/*
** Decode the character at s[0] of a stretch that utf8_find_error() has
** already found well-formed: no range checks, so a caller stepping through
** validated text pays only for the bits. Never call it on unchecked bytes.
*/
static inline utf8_unit utf8_decode_valid(const unsigned char *s){
  utf8_unit u;
  unsigned b0 = s[0];
  u.reason = UTF8_OK;
  if( b0<0x80 ){                       /* 0xxxxxxx */
    u.codepoint = b0;
    u.length = 1;
  }else if( b0<0xE0 ){                 /* 110xxxxx 10xxxxxx */
    u.codepoint = ((uint32_t)(b0 & 0x1F)<<6) | (s[1] & 0x3F);
    u.length = 2;
  }else if( b0<0xF0 ){                 /* 1110xxxx 10xxxxxx 10xxxxxx */
    u.codepoint = ((uint32_t)(b0 & 0x0F)<<12) | ((uint32_t)(s[1] & 0x3F)<<6)
                | (s[2] & 0x3F);
    u.length = 3;
  }else{                               /* 11110xxx and three 10xxxxxx */
    u.codepoint = ((uint32_t)(b0 & 0x07)<<18) | ((uint32_t)(s[1] & 0x3F)<<12)
                | ((uint32_t)(s[2] & 0x3F)<<6) | (s[3] & 0x3F);
    u.length = 4;
  }
  return u;
}

/*
** utf8_decode_valid() without branches, for callers stepping through long
** validated text whose mix of 1- to 4-byte characters defeats branch
** prediction. It reads s[0..4) whatever the length, so the caller's
** buffer must have 3 readable bytes past the end of the text.
*/
static inline utf8_unit utf8_decode_valid_padded(const unsigned char *s){
  /* bytes in the character, by the lead byte's high nibble (8-B are
  ** continuation bytes, never a lead in well-formed text) */
  static const uint8_t length_of[16] = {1,1,1,1,1,1,1,1, 1,1,1,1, 2,2,3,4};
  /* the lead byte's payload bits, by length */
  static const uint8_t lead_bits[5] = {0, 0x7F, 0x1F, 0x0F, 0x07};
  utf8_unit u;
  unsigned len = length_of[s[0]>>4];
  /* All four bytes' payloads side by side, then shift off those that
  ** belong to the next characters. */
  uint32_t all = ((uint32_t)(s[0] & lead_bits[len])<<18)
               | ((uint32_t)(s[1] & 0x3F)<<12)
               | ((uint32_t)(s[2] & 0x3F)<<6)
               | (uint32_t)(s[3] & 0x3F);
  u.codepoint = all >> (6*(4-len));
  u.length = (uint8_t)len;
  u.reason = UTF8_OK;
  return u;
}

/*
** Byte offset of the first ill-formed unit of s[0..n), or n when s is
** well-formed. Runs the fastest implementation this CPU supports (see
** core/dispatch.c); every implementation returns the same answer.
*/
size_t utf8_find_error(const unsigned char *s, size_t n);

/* 1 if s[0..n) is well-formed UTF-8, else 0. */
int utf8_is_valid(const unsigned char *s, size_t n);

/*
** The number of units in s[0..n): characters plus ill-formed units. It is
** the number of characters utf8_fix() gives with the 'subpart' rule.
*/
size_t utf8_count_units(const unsigned char *s, size_t n);

/*
** How many ill-formed units s[0..n) has, and (when it has any) the offset
** and the unit of the first one.
*/
typedef struct utf8_errors {
  size_t count;       /* ill-formed units in the input */
  size_t first;       /* offset of the first one; the input length if none */
  utf8_unit unit;     /* the first one (length 0 if none) */
} utf8_errors;
utf8_errors utf8_scan_errors(const unsigned char *s, size_t n);

/*
** Repair. Every ill-formed unit is replaced by the bytes r[0..rlen) (which
** the caller has checked are well-formed), counted by one of three rules.
*/
typedef enum utf8_fix_rule {
  UTF8_FIX_SUBPART = 0, /* one replacement per ill-formed unit (Unicode) */
  UTF8_FIX_RUN,         /* one per run of adjacent ill-formed units (Go) */
  UTF8_FIX_BYTE         /* one per ill-formed byte (BigQuery) */
} utf8_fix_rule;

/*
** Write the repaired s to out and return its length; with out==NULL only
** return the length. The length saturates at SIZE_MAX rather than wrap,
** so a caller compares it with its own limit before allocating.
*/
size_t utf8_fix(const unsigned char *s, size_t n,
                const unsigned char *r, size_t rlen,
                utf8_fix_rule rule, unsigned char *out);

/*
** Recode: the ill-formed units of s are decoded as a legacy encoding
** instead of being replaced. Well-formed stretches are copied unchanged.
*/
typedef enum utf8_recode_enc {
  UTF8_RECODE_CP1252 = 0, /* each byte as Windows-1252 (WHATWG's table) */
  UTF8_RECODE_LATIN1,     /* each byte is its own code point */
  UTF8_RECODE_CESU8,      /* surrogate pairs as two 3-byte sequences */
  UTF8_RECODE_MUTF8       /* CESU-8 plus C0 80 for U+0000 (Java) */
} utf8_recode_enc;

/* As utf8_fix(): write to out, or with out==NULL only measure. */
size_t utf8_recode(const unsigned char *s, size_t n, utf8_recode_enc enc,
                   unsigned char *out);

/*
** Every byte of s decoded as cp1252 or Latin-1, well-formed pairs too (a
** legacy value read whole); as utf8_recode, write or only measure. 0 for
** the other encodings, which are not single-byte.
*/
size_t utf8_recode_whole(const unsigned char *s, size_t n, utf8_recode_enc enc,
                         unsigned char *out);

/*
** Encode the scalar value cp (not a surrogate, at most 0x10FFFF) into
** out[0..4) and return the number of bytes written; 0 if cp is no scalar
** value.
*/
size_t utf8_encode_scalar(uint32_t cp, unsigned char *out);

/*
** The validator implementation chosen for this CPU ("avx512", "scalar",
** ...), with a note when UTF8EXT_IMPL asked for one it cannot run.
*/
const char *utf8_impl_name(void);

#endif /* UTF8EXT_CORE_UTF8_H */
