/*
** core/simd_neon.c - the vector validator (core/simd_kl.h) on 16-byte
** AArch64 Advanced SIMD registers: TBL for the table lookups, EXT for the
** bytes of the previous block, UMAXV for the "any error" test. Advanced
** SIMD is part of every AArch64 CPU, so this path needs no detection and
** no target attribute.
**
** NEON has no byte "movemask"; kl_top_bits and kl_nonzero_bits give each
** lane its own bit value and add the halves across (ADDV), which is only
** done when a block is bad or to test a block for ASCII.
*/
#include "impl.h"

#include <arm_neon.h>
#include <stdint.h>
#include <string.h>

#define KL_BYTES 16
#define KL_TARGET
typedef uint8x16_t kl_vec;

/* Bit j%8 of the byte at j: ADDV over each half then packs a 16-bit mask. */
static const uint8_t neon_lane_bits[16] = {
  1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128
};

static inline kl_vec kl_load(const unsigned char *p){ return vld1q_u8(p); }
/* A short last block goes through a zeroed buffer: this path is not hot. */
static inline kl_vec kl_load_partial(const unsigned char *p, size_t r){
  uint8_t buf[16] = {0};
  if( r==16 ) return vld1q_u8(p);
  memcpy(buf, p, r);
  return vld1q_u8(buf);
}
static inline void kl_store(unsigned char *p, kl_vec v){ vst1q_u8(p, v); }
static inline kl_vec kl_zero(void){ return vdupq_n_u8(0); }
static inline kl_vec kl_splat(uint8_t b){ return vdupq_n_u8(b); }
static inline kl_vec kl_table(const uint8_t *t){ return vld1q_u8(t); }
static inline kl_vec kl_lookup(kl_vec t, kl_vec i){ return vqtbl1q_u8(t, i); }
static inline kl_vec kl_shr4(kl_vec v){ return vshrq_n_u8(v, 4); }
static inline kl_vec kl_and(kl_vec a, kl_vec b){ return vandq_u8(a, b); }
static inline kl_vec kl_or(kl_vec a, kl_vec b){ return vorrq_u8(a, b); }
static inline kl_vec kl_xor(kl_vec a, kl_vec b){ return veorq_u8(a, b); }
static inline kl_vec kl_subs(kl_vec a, kl_vec b){ return vqsubq_u8(a, b); }
static inline kl_vec kl_prev1(kl_vec v, kl_vec p){ return vextq_u8(p, v, 15); }
static inline kl_vec kl_prev2(kl_vec v, kl_vec p){ return vextq_u8(p, v, 14); }
static inline kl_vec kl_prev3(kl_vec v, kl_vec p){ return vextq_u8(p, v, 13); }
static inline int kl_any(kl_vec v){ return vmaxvq_u8(v)!=0; }

/* One bit per lane that is all ones in m (0x00 or 0xFF lanes). */
static inline uint64_t neon_lane_mask(uint8x16_t m){
  uint8x16_t bits = vandq_u8(m, vld1q_u8(neon_lane_bits));
  return (uint64_t)vaddv_u8(vget_low_u8(bits))
       | (uint64_t)vaddv_u8(vget_high_u8(bits))<<8;
}
static inline uint64_t kl_top_bits(kl_vec v){
  return neon_lane_mask(vcltq_s8(vreinterpretq_s8_u8(v), vdupq_n_s8(0)));
}
static inline uint64_t kl_nonzero_bits(kl_vec v){ return neon_lane_mask(vtstq_u8(v, v)); }

#include "simd_kl.h"

static int neon_always(void){ return 1; }

/* The dispatcher calls these by name; the list holds them too. */
KL_TARGET size_t utf8_find_error_neon(const unsigned char *s, size_t n){
  return kl_find_error(s, n);
}
KL_TARGET size_t utf8_find_error_count_neon(const unsigned char *s, size_t n, size_t *chars){
  return kl_find_error_count(s, n, chars);
}
KL_DEFINE_FIX(neon)

const utf8_impl utf8_impl_neon = {
  "neon", neon_always, utf8_find_error_neon, utf8_find_error_count_neon,
  utf8_fix_neon
};
