/*
** core/impl.h - what one validator implementation provides, and the list
** the dispatcher (core/dispatch.c) chooses from. Internal to core/ and to
** the tests and benchmark, which run every implementation side by side.
**
** An implementation answers one question, exactly: the offset of the first
** ill-formed unit, or n when there is none. A SIMD implementation learns
** which byte is first found wrong; a look at most three bytes back from it
** (core/simd_kl.h) gives the scalar answer, at a cost that does not grow
** with the length of the value.
*/
#ifndef UTF8EXT_CORE_IMPL_H
#define UTF8EXT_CORE_IMPL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef size_t (*utf8_find_error_fn)(const unsigned char *s, size_t n);

/*
** The same offset, and in *chars the number of characters before it (the
** well-formed prefix's bytes that are not continuation bytes), found in
** the same pass.
*/
typedef size_t (*utf8_find_error_count_fn)(const unsigned char *s, size_t n,
                                           size_t *chars);

/*
** utf8_fix for a replacement r of at least 3 bytes, written once per
** ill-formed unit (per_byte: once per byte of it), inside the vector loop
** (core/simd_kl.h, kl_fix). Same bytes and length as utf8_fix.
*/
typedef size_t (*utf8_fix_fn)(const unsigned char *s, size_t n,
                              const unsigned char *r, size_t rlen,
                              int per_byte, unsigned char *out);

typedef struct utf8_impl {
  const char *name;           /* what utf8ext_impl() reports */
  int (*cpu_supports)(void);  /* 1 if this CPU can run it */
  utf8_find_error_fn find_error;
  utf8_find_error_count_fn find_error_count;
  utf8_fix_fn fix;            /* NULL for the scalar one */
} utf8_impl;

/* The scalar reference: always built, runs everywhere. */
size_t utf8_find_error_scalar(const unsigned char *s, size_t n);
size_t utf8_find_error_count_scalar(const unsigned char *s, size_t n, size_t *chars);

/* The chosen implementation's find_error_count (core/dispatch.c). */
size_t utf8_find_error_count(const unsigned char *s, size_t n, size_t *chars);

/*
** The chosen implementation's fix, its result in *len: 0 when it has
** none (the scalar one), and utf8_fix does the work itself.
*/
int utf8_fix_vector(const unsigned char *s, size_t n, const unsigned char *r,
                    size_t rlen, int per_byte, unsigned char *out, size_t *len);

/*
** Every implementation compiled into this build, best first, ending with
** the scalar one; *count receives how many. The dispatcher takes the
** first the CPU supports.
*/
const utf8_impl *const *utf8_impl_list(size_t *count);

/* The implementation called name, or NULL when there is none. */
const utf8_impl *utf8_impl_find(const char *name);

/*
** Each SIMD file's two functions by name, so that the dispatcher calls
** them directly (core/dispatch.c says why).
*/
#define UTF8_DECLARE_IMPL(x) \
  size_t utf8_find_error_##x(const unsigned char *s, size_t n); \
  size_t utf8_find_error_count_##x(const unsigned char *s, size_t n, size_t *chars); \
  size_t utf8_fix_##x(const unsigned char *s, size_t n, const unsigned char *r, \
                      size_t rlen, int per_byte, unsigned char *out);
#if defined(UTF8EXT_HAVE_X86)
UTF8_DECLARE_IMPL(avx512)
UTF8_DECLARE_IMPL(avx2)
UTF8_DECLARE_IMPL(sse4)
#endif
#if defined(UTF8EXT_HAVE_NEON)
UTF8_DECLARE_IMPL(neon)
#endif

/* Windows-1252 bytes 80-9F as WHATWG maps them (core/recode.c), the
** five Windows leaves undefined as the C1 controls of the same value:
** utf8_recode and the mojibake engine read cp1252 by the one table. */
extern const uint16_t utf8_cp1252_80_9f[32];

/* a+b, or SIZE_MAX when that does not fit: output lengths saturate, never
** wrap, so a caller compares them with its own limit before allocating. */
static inline size_t utf8_add_sat(size_t a, size_t b){
  return a>SIZE_MAX-b ? SIZE_MAX : a+b;
}

/*
** The length of the unit at s[0] (n>=1 bytes left) as utf8_decode_unit
** gives it, and in *bad whether it is ill-formed, with few branches: in
** the repair loop an error's bytes are random, and a mispredicted branch
** costs more than the rest of the unit. utf8_unit_rows[b] (core/decode.c)
** holds, for a first byte b, the continuation bytes its character needs,
** the range of the first of them (lo, lo+span), and bad=1 for a byte no
** character starts with. Bytes past n read as 0, which continues nothing:
** a cut sequence ends where utf8_decode_unit ends it. test/core_test.c
** checks the two agree on every string of up to 4 bytes it builds.
*/
typedef struct utf8_unit_row { unsigned char need, lo, span, bad; } utf8_unit_row;
extern const utf8_unit_row utf8_unit_rows[256];

static inline size_t utf8_unit_len(const unsigned char *s, size_t n, int *bad){
  unsigned char b[4] = {0, 0, 0, 0};
  utf8_unit_row row = utf8_unit_rows[s[0]];
  unsigned m1, m2, m3, matched;
  if( __builtin_expect(n>=4, 1) ) memcpy(b, s, 4);
  else memcpy(b, s, n);
  m1 = (unsigned)(unsigned char)(b[1]-row.lo) <= row.span;
  m2 = m1 & ((b[2] & 0xC0)==0x80);
  m3 = m2 & ((b[3] & 0xC0)==0x80);
  matched = m1 + m2 + m3;
  if( matched>row.need ) matched = row.need;
  *bad = row.bad | (matched!=row.need);
  return matched+1;
}

#if defined(UTF8EXT_HAVE_X86)
/* core/cpu_x86.c: 1 when the CPU has the instructions and the OS saves
** the registers they use. */
int utf8_cpu_has_sse4(void);        /* SSSE3, SSE4.1, SSE4.2 */
int utf8_cpu_has_avx2(void);        /* AVX2, YMM state saved */
int utf8_cpu_has_avx512(void);      /* AVX-512 F+BW, ZMM and k state saved */
int utf8_cpu_has_avx512_vbmi2(void); /* and VBMI, VBMI2, BMI2 (cached) */

/* The AVX-512 file's two repair kernels; utf8_fix_avx512 calls the
** second where the CPU has VBMI2 (test/fix_test.c checks both). */
size_t utf8_fix_avx512_window(const unsigned char *s, size_t n, const unsigned char *r,
                              size_t rlen, int per_byte, unsigned char *out);
size_t utf8_fix_avx512_vbmi2(const unsigned char *s, size_t n, const unsigned char *r,
                             size_t rlen, int per_byte, unsigned char *out);
#endif

#endif /* UTF8EXT_CORE_IMPL_H */
