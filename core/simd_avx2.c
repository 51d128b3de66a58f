/*
** core/simd_avx2.c - the vector validator (core/simd_kl.h) on 32-byte
** AVX2 registers. PSHUFB and PALIGNR work within each 16-byte lane, so
** the bytes "before" the upper lane come from a VPERM2I128 of this block
** and the previous one. Only this file's functions use AVX2, by their
** target attribute; the dispatcher calls them only when core/cpu_x86.c
** says the CPU and the OS support AVX2.
*/
#include "impl.h"
#include "simd_x86.h"

#include <immintrin.h>
#include <stdint.h>

#define KL_BYTES 32
#define KL_PREV_LOADS
/* POPCNT counts continuation bytes (kl_validate); cpu_x86.c checks it */
#define KL_TARGET __attribute__((target("avx2,popcnt")))
typedef __m256i kl_vec;

static inline KL_TARGET kl_vec kl_load(const unsigned char *p){
  return _mm256_loadu_si256((const __m256i*)p);
}
/* The last block in two halves: a partial one, or a full and a partial. */
static inline KL_TARGET kl_vec kl_load_partial(const unsigned char *p, size_t r){
  if( r<=16 ){
    return _mm256_zextsi128_si256(x86_load_partial16(p, r));
  }else{
    __m128i lo = _mm_loadu_si128((const __m128i*)p);
    __m128i hi = x86_load_partial16(p+16, r-16);
    return _mm256_inserti128_si256(_mm256_castsi128_si256(lo), hi, 1);
  }
}
static inline KL_TARGET void kl_store(unsigned char *p, kl_vec v){
  _mm256_storeu_si256((__m256i*)p, v);
}
static inline KL_TARGET kl_vec kl_zero(void){ return _mm256_setzero_si256(); }
static inline KL_TARGET kl_vec kl_splat(uint8_t b){ return _mm256_set1_epi8((char)b); }
static inline KL_TARGET kl_vec kl_table(const uint8_t *t){
  return _mm256_broadcastsi128_si256(_mm_loadu_si128((const __m128i*)t));
}
static inline KL_TARGET kl_vec kl_lookup(kl_vec t, kl_vec i){ return _mm256_shuffle_epi8(t, i); }
/* 16-bit shifts move bits across bytes; the mask drops them. */
static inline KL_TARGET kl_vec kl_shr4(kl_vec v){
  return _mm256_and_si256(_mm256_srli_epi16(v, 4), _mm256_set1_epi8(0x0F));
}
static inline KL_TARGET kl_vec kl_and(kl_vec a, kl_vec b){ return _mm256_and_si256(a, b); }
static inline KL_TARGET kl_vec kl_or(kl_vec a, kl_vec b){ return _mm256_or_si256(a, b); }
static inline KL_TARGET kl_vec kl_xor(kl_vec a, kl_vec b){ return _mm256_xor_si256(a, b); }
static inline KL_TARGET kl_vec kl_subs(kl_vec a, kl_vec b){ return _mm256_subs_epu8(a, b); }
/*
** v moved up n bytes: [upper lane of p, lower lane of v] supplies the
** bytes that PALIGNR shifts into each lane.
*/
#define AVX2_PREV(v, p, n) \
  _mm256_alignr_epi8(v, _mm256_permute2x128_si256(p, v, 0x21), 16-(n))
static inline KL_TARGET kl_vec kl_prev1(kl_vec v, kl_vec p){ return AVX2_PREV(v, p, 1); }
static inline KL_TARGET kl_vec kl_prev2(kl_vec v, kl_vec p){ return AVX2_PREV(v, p, 2); }
static inline KL_TARGET kl_vec kl_prev3(kl_vec v, kl_vec p){ return AVX2_PREV(v, p, 3); }
static inline KL_TARGET int kl_any(kl_vec v){ return !_mm256_testz_si256(v, v); }
static inline KL_TARGET uint64_t kl_top_bits(kl_vec v){ return (uint64_t)(unsigned)_mm256_movemask_epi8(v); }
static inline KL_TARGET uint64_t kl_nonzero_bits(kl_vec v){
  return (uint64_t)~(unsigned)_mm256_movemask_epi8(_mm256_cmpeq_epi8(v, _mm256_setzero_si256()));
}

/* 80-BF are -128..-65 as signed bytes: exactly those are below -64 (0xC0). */
#define KL_HAVE_CONT_BITS
static inline KL_TARGET uint64_t kl_cont_bits(kl_vec v){
  return (uint64_t)(unsigned)_mm256_movemask_epi8(_mm256_cmpgt_epi8(_mm256_set1_epi8(-64), v));
}

#include "simd_kl.h"

/* The dispatcher calls these by name; the list holds them too. */
KL_TARGET size_t utf8_find_error_avx2(const unsigned char *s, size_t n){
  return kl_find_error(s, n);
}
KL_TARGET size_t utf8_find_error_count_avx2(const unsigned char *s, size_t n, size_t *chars){
  return kl_find_error_count(s, n, chars);
}
KL_DEFINE_FIX(avx2)

const utf8_impl utf8_impl_avx2 = {
  "avx2", utf8_cpu_has_avx2, utf8_find_error_avx2, utf8_find_error_count_avx2,
  utf8_fix_avx2
};

/* utf8_moji_possible()'s block scan (core/mojiscan.h), built for AVX2: the
** same C as the baseline copy, vectorised 32 bytes at a time. */
#include "mojiscan.h"
size_t utf8_moji_scan_avx2(const unsigned char *s, size_t n);
MOJI_SCAN_DEFINE(utf8_moji_scan_avx2, __attribute__((target("avx2"))), 32)
