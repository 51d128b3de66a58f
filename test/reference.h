/*
** test/reference.h - a plain reference decoder, written straight from the
** ABNF of RFC 3629 section 4 and the reasons table of docs/reference.md
** ("One segmentation, six reasons"), sharing no code with
** core/. The core tests compare the engine with it; it is slow and simple
** on purpose.
*/
#ifndef UTF8EXT_TEST_REFERENCE_H
#define UTF8EXT_TEST_REFERENCE_H

#include <stddef.h>
#include <stdint.h>

typedef struct ref_unit {
  size_t length;       /* bytes in the unit */
  int reason;          /* the same numbering as utf8_reason; 0 = a character */
  uint32_t codepoint;  /* the scalar value of a character */
} ref_unit;

/* The unit starting at s[0] (n >= 1). */
ref_unit ref_decode(const unsigned char *s, size_t n);

/* Offset of the first ill-formed unit, or n. */
size_t ref_first_error(const unsigned char *s, size_t n);

/* Number of units. */
size_t ref_count_units(const unsigned char *s, size_t n);

/* Repair with replacement r and rule 0 subpart, 1 run, 2 byte; returns
** the length written to out (which must be large enough). */
size_t ref_fix(const unsigned char *s, size_t n, const unsigned char *r,
               size_t rlen, int rule, unsigned char *out);

/* Recode with enc 0 cp1252, 1 latin1, 2 cesu8, 3 mutf8. */
size_t ref_recode(const unsigned char *s, size_t n, int enc, unsigned char *out);

/* UTF-8 of scalar value cp into out; returns its length. */
size_t ref_encode(uint32_t cp, unsigned char *out);

#endif
