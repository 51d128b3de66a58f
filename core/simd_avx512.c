/*
** core/simd_avx512.c - the vector validator (core/simd_kl.h) on 64-byte
** AVX-512 registers (F and BW). Byte masks make two things cheap here: the
** last block is a masked load, which by definition touches no byte outside
** the mask (and does not fault there), and "which byte is the first error"
** is one TZCNT.
** PSHUFB and PALIGNR work within 16-byte lanes, so the bytes before each
** lane come from VALIGNQ of this block and the previous one.
*/
#include "impl.h"

#include <immintrin.h>
#include <stdint.h>

#define KL_BYTES 64
#define KL_PREV_LOADS
/* POPCNT counts continuation bytes (kl_validate); cpu_x86.c checks it */
#define KL_TARGET __attribute__((target("avx512f,avx512bw,popcnt")))
typedef __m512i kl_vec;

static inline KL_TARGET kl_vec kl_load(const unsigned char *p){
  return _mm512_loadu_si512((const void*)p);
}
static inline KL_TARGET kl_vec kl_load_partial(const unsigned char *p, size_t r){
  return _mm512_maskz_loadu_epi8((__mmask64)(~0ull>>(64-r)), (const void*)p);
}
static inline KL_TARGET void kl_store(unsigned char *p, kl_vec v){
  _mm512_storeu_si512((void*)p, v);
}
static inline KL_TARGET kl_vec kl_zero(void){ return _mm512_setzero_si512(); }
static inline KL_TARGET kl_vec kl_splat(uint8_t b){ return _mm512_set1_epi8((char)b); }
static inline KL_TARGET kl_vec kl_table(const uint8_t *t){
  return _mm512_broadcast_i32x4(_mm_loadu_si128((const __m128i*)t));
}
static inline KL_TARGET kl_vec kl_lookup(kl_vec t, kl_vec i){ return _mm512_shuffle_epi8(t, i); }
/* 16-bit shifts move bits across bytes; the mask drops them. */
static inline KL_TARGET kl_vec kl_shr4(kl_vec v){
  return _mm512_and_si512(_mm512_srli_epi16(v, 4), _mm512_set1_epi8(0x0F));
}
static inline KL_TARGET kl_vec kl_and(kl_vec a, kl_vec b){ return _mm512_and_si512(a, b); }
static inline KL_TARGET kl_vec kl_or(kl_vec a, kl_vec b){ return _mm512_or_si512(a, b); }
static inline KL_TARGET kl_vec kl_xor(kl_vec a, kl_vec b){ return _mm512_xor_si512(a, b); }
static inline KL_TARGET kl_vec kl_subs(kl_vec a, kl_vec b){ return _mm512_subs_epu8(a, b); }
/*
** v moved up n bytes: VALIGNQ builds [last lane of p, lanes 0-2 of v],
** the bytes that PALIGNR shifts into each lane of v.
*/
#define AVX512_PREV(v, p, n) \
  _mm512_alignr_epi8(v, _mm512_alignr_epi64(v, p, 6), 16-(n))
static inline KL_TARGET kl_vec kl_prev1(kl_vec v, kl_vec p){ return AVX512_PREV(v, p, 1); }
static inline KL_TARGET kl_vec kl_prev2(kl_vec v, kl_vec p){ return AVX512_PREV(v, p, 2); }
static inline KL_TARGET kl_vec kl_prev3(kl_vec v, kl_vec p){ return AVX512_PREV(v, p, 3); }
static inline KL_TARGET int kl_any(kl_vec v){ return _mm512_test_epi64_mask(v, v)!=0; }
static inline KL_TARGET uint64_t kl_top_bits(kl_vec v){ return (uint64_t)_mm512_movepi8_mask(v); }
static inline KL_TARGET uint64_t kl_nonzero_bits(kl_vec v){
  return (uint64_t)_mm512_test_epi8_mask(v, v);
}

/* 80-BF are -128..-65 as signed bytes: exactly those are below -64 (0xC0). */
#define KL_HAVE_CONT_BITS
static inline KL_TARGET uint64_t kl_cont_bits(kl_vec v){
  return (uint64_t)_mm512_cmplt_epi8_mask(v, _mm512_set1_epi8(-64));
}

/*
** lo<=b<=hi is b-lo<=hi-lo, unsigned, with the subtraction wrapping; one
** compare when lo is 0 or lo is hi (the arguments are constants, so only
** one of the three remains).
*/
#define KL_HAVE_IN_RANGE
static inline KL_TARGET uint64_t kl_in_range(kl_vec v, uint8_t lo, uint8_t hi){
  if( lo==hi ) return (uint64_t)_mm512_cmpeq_epu8_mask(v, _mm512_set1_epi8((char)lo));
  if( lo==0 ) return (uint64_t)_mm512_cmple_epu8_mask(v, _mm512_set1_epi8((char)hi));
  return (uint64_t)_mm512_cmple_epu8_mask(_mm512_sub_epi8(v, _mm512_set1_epi8((char)lo)),
                                          _mm512_set1_epi8((char)(hi-lo)));
}

#include "simd_kl.h"

/* The dispatcher calls these by name; the list holds them too. */
KL_TARGET size_t utf8_find_error_avx512(const unsigned char *s, size_t n){
  return kl_find_error(s, n);
}
KL_TARGET size_t utf8_find_error_count_avx512(const unsigned char *s, size_t n, size_t *chars){
  return kl_find_error_count(s, n, chars);
}
KL_DEFINE_FIX(avx512)

const utf8_impl utf8_impl_avx512 = {
  "avx512", utf8_cpu_has_avx512, utf8_find_error_avx512, utf8_find_error_count_avx512,
  utf8_fix_avx512
};

/* utf8_moji_possible()'s block scan (core/mojiscan.h), built for AVX-512:
** the same C as the baseline copy, a whole 64-byte block per vector. */
#include "mojiscan.h"
size_t utf8_moji_scan_avx512(const unsigned char *s, size_t n);
MOJI_SCAN_DEFINE(utf8_moji_scan_avx512, __attribute__((target("avx512f,avx512bw"))), 64)
