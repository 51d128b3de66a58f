/*
** core/simd_x86.h - a zero-padded 16-byte load of up to 16 bytes, shared
** by the SSE4 and AVX2 validators for the last block of a value.
**
** A plain 16-byte load there could cross into an unmapped page, and
** copying the tail through a stack buffer costs a store-forwarding stall
** on every short string. Instead we load the r bytes with two overlapping
** scalar loads (8+8, 4+4, or single bytes) and let one PSHUFB move each
** byte to its place and zero the rest. Nothing past p[r-1] is read.
*/
#ifndef UTF8EXT_CORE_SIMD_X86_H
#define UTF8EXT_CORE_SIMD_X86_H

#include <immintrin.h>
#include <stdint.h>
#include <string.h>

/*
** Where byte j of the result comes from, for r<16 bytes loaded as
**   r>=8:  p[0..8) at 0-7,  p[r-8..r) at 8-15  -> j<8 ? j : j+16-r
**   r>=4:  p[0..4) at 0-3,  p[r-4..r) at 8-11  -> j<4 ? j : j+12-r
**   r<4:   p[0], p[r/2], p[r-1] at 0, 1, 2     -> j
** and 0x80 (PSHUFB's "write zero") for j>=r.
*/
#define X86_PICK(r,j) (uint8_t)( (j)>=(r) ? 0x80 \
  : (r)>=8 ? ((j)<8 ? (j) : (j)+16-(r)) \
  : (r)>=4 ? ((j)<4 ? (j) : (j)+12-(r)) : (j) )
#define X86_PICK_ROW(r) { X86_PICK(r,0), X86_PICK(r,1), X86_PICK(r,2), \
  X86_PICK(r,3), X86_PICK(r,4), X86_PICK(r,5), X86_PICK(r,6), X86_PICK(r,7), \
  X86_PICK(r,8), X86_PICK(r,9), X86_PICK(r,10), X86_PICK(r,11), \
  X86_PICK(r,12), X86_PICK(r,13), X86_PICK(r,14), X86_PICK(r,15) }

static const uint8_t x86_partial_pick[16][16] = {
  X86_PICK_ROW(0),  X86_PICK_ROW(1),  X86_PICK_ROW(2),  X86_PICK_ROW(3),
  X86_PICK_ROW(4),  X86_PICK_ROW(5),  X86_PICK_ROW(6),  X86_PICK_ROW(7),
  X86_PICK_ROW(8),  X86_PICK_ROW(9),  X86_PICK_ROW(10), X86_PICK_ROW(11),
  X86_PICK_ROW(12), X86_PICK_ROW(13), X86_PICK_ROW(14), X86_PICK_ROW(15),
};

/*
** p[0..r) in the low r bytes of the result, zeros above; 0<r<=16.
*/
static inline __attribute__((target("sse4.2")))
__m128i x86_load_partial16(const unsigned char *p, size_t r){
  __m128i v;
  if( r==16 ) return _mm_loadu_si128((const __m128i*)p);
  if( r>=8 ){
    uint64_t a, b;
    memcpy(&a, p, 8);
    memcpy(&b, p+r-8, 8);
    v = _mm_set_epi64x((long long)b, (long long)a);
  }else if( r>=4 ){
    uint32_t a, b;
    memcpy(&a, p, 4);
    memcpy(&b, p+r-4, 4);
    v = _mm_set_epi32(0, (int)b, 0, (int)a);
  }else{
    uint32_t a = p[0] | (uint32_t)p[r>>1]<<8 | (uint32_t)p[r-1]<<16;
    v = _mm_cvtsi32_si128((int)a);
  }
  return _mm_shuffle_epi8(v, _mm_loadu_si128((const __m128i*)x86_partial_pick[r]));
}

#endif /* UTF8EXT_CORE_SIMD_X86_H */
