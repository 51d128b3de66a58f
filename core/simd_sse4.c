/*
** core/simd_sse4.c - the vector validator (core/simd_kl.h) on 16-byte
** SSE registers: PSHUFB (SSSE3) for the table lookups, PALIGNR for the
** bytes of the previous block, PTEST (SSE4.1) for the "any error" test.
** Runs on nearly every x86-64 built since 2008; the fallback for CPUs
** without AVX2. Only this file's functions use these instructions, by
** their target attribute, so the build needs no -m flag.
*/
#include "impl.h"
#include "simd_x86.h"

#include <immintrin.h>
#include <stdint.h>

#define KL_BYTES 16
/* POPCNT counts continuation bytes (kl_validate); cpu_x86.c checks it */
#define KL_TARGET __attribute__((target("sse4.2,popcnt")))
typedef __m128i kl_vec;

static inline KL_TARGET kl_vec kl_load(const unsigned char *p){
  return _mm_loadu_si128((const __m128i*)p);
}
static inline KL_TARGET kl_vec kl_load_partial(const unsigned char *p, size_t r){
  return x86_load_partial16(p, r);
}
static inline KL_TARGET void kl_store(unsigned char *p, kl_vec v){
  _mm_storeu_si128((__m128i*)p, v);
}
static inline KL_TARGET kl_vec kl_zero(void){ return _mm_setzero_si128(); }
static inline KL_TARGET kl_vec kl_splat(uint8_t b){ return _mm_set1_epi8((char)b); }
static inline KL_TARGET kl_vec kl_table(const uint8_t *t){ return kl_load(t); }
static inline KL_TARGET kl_vec kl_lookup(kl_vec t, kl_vec i){ return _mm_shuffle_epi8(t, i); }
/* 16-bit shifts move bits across bytes; the mask drops them. */
static inline KL_TARGET kl_vec kl_shr4(kl_vec v){
  return _mm_and_si128(_mm_srli_epi16(v, 4), _mm_set1_epi8(0x0F));
}
static inline KL_TARGET kl_vec kl_and(kl_vec a, kl_vec b){ return _mm_and_si128(a, b); }
static inline KL_TARGET kl_vec kl_or(kl_vec a, kl_vec b){ return _mm_or_si128(a, b); }
static inline KL_TARGET kl_vec kl_xor(kl_vec a, kl_vec b){ return _mm_xor_si128(a, b); }
static inline KL_TARGET kl_vec kl_subs(kl_vec a, kl_vec b){ return _mm_subs_epu8(a, b); }
static inline KL_TARGET kl_vec kl_prev1(kl_vec v, kl_vec p){ return _mm_alignr_epi8(v, p, 15); }
static inline KL_TARGET kl_vec kl_prev2(kl_vec v, kl_vec p){ return _mm_alignr_epi8(v, p, 14); }
static inline KL_TARGET kl_vec kl_prev3(kl_vec v, kl_vec p){ return _mm_alignr_epi8(v, p, 13); }
static inline KL_TARGET int kl_any(kl_vec v){ return !_mm_testz_si128(v, v); }
static inline KL_TARGET uint64_t kl_top_bits(kl_vec v){ return (uint64_t)(unsigned)_mm_movemask_epi8(v); }
static inline KL_TARGET uint64_t kl_nonzero_bits(kl_vec v){
  return (uint64_t)(~(unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())) & 0xFFFFu);
}

/* 80-BF are -128..-65 as signed bytes: exactly those are below -64 (0xC0). */
#define KL_HAVE_CONT_BITS
static inline KL_TARGET uint64_t kl_cont_bits(kl_vec v){
  return (uint64_t)(unsigned)_mm_movemask_epi8(_mm_cmpgt_epi8(_mm_set1_epi8(-64), v));
}

#include "simd_kl.h"

/* The dispatcher calls these by name; the list holds them too. */
KL_TARGET size_t utf8_find_error_sse4(const unsigned char *s, size_t n){
  return kl_find_error(s, n);
}
KL_TARGET size_t utf8_find_error_count_sse4(const unsigned char *s, size_t n, size_t *chars){
  return kl_find_error_count(s, n, chars);
}
KL_DEFINE_FIX(sse4)

const utf8_impl utf8_impl_sse4 = {
  "sse4", utf8_cpu_has_sse4, utf8_find_error_sse4, utf8_find_error_count_sse4,
  utf8_fix_sse4
};
