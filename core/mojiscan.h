/*
** core/mojiscan.h - the fast half of utf8_moji_possible(): find the first
** 64-byte block of a value where mojibake of any supported charset may
** start, at the speed of the vector unit. Included by core/mojibake.c
** (built for the baseline CPU) and core/simd_avx2.c (built for AVX2),
** each stamping out its own copy with MOJI_SCAN_DEFINE; the dispatcher
** (core/dispatch.c) calls the one the CPU runs.
**
** The test at each byte is a superset of the exact filters of
** core/mojibake.c (rules 1, 8 and 9): for a byte b0 with b1 f g after
** it, a lead character of one reading (b0 b1: cp1252's Â..ô, cp1250's and
** MacRoman's leads, a Cyrillic letter for cp1251) followed by a byte f
** that starts what the same reading makes of a continuation byte (for
** MacRoman's three-byte leads, g). It is written as compares, ANDs and
** ORs of vectors of bytes (GCC's and clang's vector types: the baseline
** copy is SSE2 or NEON, the AVX2 copy 32 bytes wide), with no branch and
** no table; a block that fails a coarser test first (a lead byte with
** another two or three bytes on) is passed at once.
**
** A block with no such byte is clean; a block with one is handed to the
** exact filters, which decide. ASCII, Greek, CJK and accented prose whose
** letters are followed by ASCII (nearly all of it) never leave the loop.
*/
#ifndef UTF8EXT_CORE_MOJISCAN_H
#define UTF8EXT_CORE_MOJISCAN_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/* Bytes each block test reads: the block and three after it. */
#define MOJI_BLOCK 64
#define MOJI_REACH (MOJI_BLOCK+3)

/*
** MOJI_SCAN_DEFINE(name, attr, VS): size_t name(s, n), the offset of the
** first block (s + k*64) whose test fires, with k*64+MOJI_REACH <= n; or
** the offset of the tail that has no whole block left (the caller checks
** that one exactly), or n where that tail is short and its test does not
** fire either. VS is the vector width in bytes (GCC and clang
** vector types: 16 for the baseline SSE2 or NEON, 32 under AVX2).
*/
#define MOJI_EQ(v, c) ((v)==(c))
#define MOJI_SCAN_DEFINE(name, attr, VS) \
typedef unsigned char name##_v __attribute__((vector_size(VS))); \
typedef signed char name##_m __attribute__((vector_size(VS))); \
static inline attr name##_v name##_ld(const unsigned char *p){ \
  name##_v v; \
  memcpy(&v, p, VS); \
  return v; \
} \
static attr int name##_block(const unsigned char *p){ \
  name##_m acc = {0}, lead = {0}; \
  uint64_t w[VS/8], any = 0; \
  int i, k; \
  /* first a coarser test: a lead byte that begins a lead character of \
  ** some reading below (C2-C6, D0 D1, E2 EF) with a lead byte two or \
  ** three bytes on, or "Â" or "Ã" and a space; ASCII, prose whose \
  ** accented letters stand between ASCII ones, and Greek, CJK, Arabic, \
  ** Hebrew or Thai text stop here */ \
  for(i=0; i<MOJI_BLOCK; i+=VS){ \
    name##_v b0 = name##_ld(p+i), f = name##_ld(p+i+2); \
    name##_m first = ((name##_v)(b0-0xC2)<=4) | ((name##_v)(b0-0xD0)<=1) \
                   | MOJI_EQ(b0,0xE2) | MOJI_EQ(b0,0xEF); \
    lead |= first & ((f>=0xC2) | (name##_ld(p+i+3)>=0xC2) \
                     | (((name##_v)(name##_ld(p+i+1)-0x82)<=1) & MOJI_EQ(f,' '))); \
  } \
  memcpy(w, &lead, VS); \
  for(k=0; k<VS/8; k++) any |= w[k]; \
  if( any==0 ) return 0; \
  for(i=0; i<MOJI_BLOCK; i+=VS){ \
    name##_v b0 = name##_ld(p+i), b1 = name##_ld(p+i+1); \
    name##_v f = name##_ld(p+i+2), g = name##_ld(p+i+3); \
    /* what each reading makes of a continuation byte: leads C2 E2 (all), \
    ** C5 C6 CB (cp1252), C4 C5 CB (cp1250), C3 CE CF (MacRoman) */ \
    name##_m fall = MOJI_EQ(f,0xC2)|MOJI_EQ(f,0xE2); \
    name##_m f1252 = fall|MOJI_EQ(f,0xC5)|MOJI_EQ(f,0xC6)|MOJI_EQ(f,0xCB); \
    name##_m f1250 = fall|MOJI_EQ(f,0xC4)|MOJI_EQ(f,0xC5)|MOJI_EQ(f,0xCB); \
    name##_m fmac = fall|MOJI_EQ(f,0xC3)|MOJI_EQ(f,0xCE)|MOJI_EQ(f,0xCF); \
    name##_m isC3 = MOJI_EQ(b0,0xC3), isC4 = MOJI_EQ(b0,0xC4), isC5 = MOJI_EQ(b0,0xC5); \
    /* cp1252: Â..ô then f1252, or "Â " and "Ã " (rule 6) */ \
    name##_m c1252 = isC3 & ((name##_v)(b1-0x82)<=0x32) \
                   & (f1252 | (((name##_v)(b1-0x82)<=1) & MOJI_EQ(f,' '))); \
    /* cp1250's leads Â Ä â × ä ç é ë í î Î á; Ă ă Ć ć Č č ď Ď Đ đ ę ě Ĺ ĺ; Ń */ \
    name##_m c1250 = f1250 & ( \
        (isC3 & (MOJI_EQ(b1,0x82)|MOJI_EQ(b1,0x84)|((name##_v)(b1-0xA1)<=1)|MOJI_EQ(b1,0x97) \
                |MOJI_EQ(b1,0xA4)|MOJI_EQ(b1,0xA7)|MOJI_EQ(b1,0xA9)|MOJI_EQ(b1,0xAB) \
                |MOJI_EQ(b1,0xAD)|MOJI_EQ(b1,0xAE)|MOJI_EQ(b1,0x8E))) \
      | (isC4 & (((name##_v)(b1-0x82)<=1)|((name##_v)(b1-0x86)<=1)|MOJI_EQ(b1,0x8D) \
                |MOJI_EQ(b1,0x8E)|MOJI_EQ(b1,0x8C) \
                |MOJI_EQ(b1,0x8F)|MOJI_EQ(b1,0x90)|MOJI_EQ(b1,0x91)|MOJI_EQ(b1,0x99) \
                |MOJI_EQ(b1,0x9B)|MOJI_EQ(b1,0xB9)|MOJI_EQ(b1,0xBA))) \
      | (isC5 & MOJI_EQ(b1,0x83))); \
    /* MacRoman's two-byte leads: C3 81..9B (its capitals), ¬ » ƒ Œ œ */ \
    name##_m cmac = fmac & ( \
        (isC3 & ((name##_v)(b1-0x81)<=0x1A)) \
      | (MOJI_EQ(b0,0xC2) & (MOJI_EQ(b1,0xAC)|MOJI_EQ(b1,0xBB))) \
      | (MOJI_EQ(b0,0xC6) & MOJI_EQ(b1,0x92)) \
      | (isC5 & (MOJI_EQ(b1,0x92)|MOJI_EQ(b1,0x93)))); \
    /* cp1251 (rule 8), exactly possible_1251's test */ \
    name##_m cy = ((MOJI_EQ(b0,0xD0) & (b1>=0x92)) | (MOJI_EQ(b0,0xD1) & (b1<=0x84))) \
                & ((MOJI_EQ(f,0xD0) & (g<=0x8F)) | (MOJI_EQ(f,0xD1) & (g>=0x90)) \
                  | (MOJI_EQ(f,0xD2) & MOJI_EQ((name##_v)(g&0xFE),0x90)) \
                  | MOJI_EQ(f,0xC2) | MOJI_EQ(f,0xE2)); \
    /* MacRoman's three-byte leads, its follower a byte later */ \
    name##_m e3 = (MOJI_EQ(b0,0xE2)|MOJI_EQ(b0,0xEF)) \
                & (MOJI_EQ(g,0xC2)|MOJI_EQ(g,0xC3)|MOJI_EQ(g,0xCE)|MOJI_EQ(g,0xCF) \
                  |MOJI_EQ(g,0xE2)); \
    acc |= c1252|c1250|cmac|cy|e3; \
  } \
  memcpy(w, &acc, VS); \
  any = 0; \
  for(k=0; k<VS/8; k++) any |= w[k]; \
  return any!=0; \
} \
/* 1 when the four blocks at p are ASCII: no byte there can start a \
** misread lead, whatever follows, so they are passed with one test */ \
static inline attr int name##_ascii4(const unsigned char *p){ \
  name##_v acc = {0}; \
  uint64_t w[VS/8], any = 0; \
  int i, k; \
  for(i=0; i<4*MOJI_BLOCK; i+=VS) acc |= name##_ld(p+i); \
  memcpy(w, &acc, VS); \
  for(k=0; k<VS/8; k++) any |= w[k]; \
  return (any & 0x8080808080808080ull)==0; \
} \
static inline int name##_ascii16(const unsigned char *p){ \
  uint64_t a, b; \
  memcpy(&a, p, 8); \
  memcpy(&b, p+8, 8); \
  return ((a|b) & 0x8080808080808080ull)==0; \
} \
/* The tail s[k..n) that holds no whole block: n when it fits in one \
** (64 bytes or fewer) and the block test, on it and zeros after (no \
** reading starts at a zero), does not fire; else k, for the caller's \
** exact filters. Most values are short: they are decided here. */ \
static attr size_t name##_tail(const unsigned char *s, size_t k, size_t n){ \
  unsigned char t[MOJI_REACH]; \
  if( n-k>MOJI_BLOCK ) return k; \
  memset(t, 0, sizeof(t)); \
  memcpy(t, s+k, n-k); \
  return name##_block(t) ? k : n; \
} \
/* aligned: where the linker puts the ASCII loop moved its speed by 7% \
** as the code around it changed (docs/mojibake.md, Speed) */ \
__attribute__((aligned(64))) attr size_t name(const unsigned char *s, size_t n){ \
  size_t k = 0; \
  for(;;){ \
    /* the four-block skip only where ASCII starts (16 bytes of it), \
    ** so that prose does not pay for a test that fails */ \
    if( k+4*MOJI_BLOCK<=n && name##_ascii16(s+k) ){ \
      while( k+4*MOJI_BLOCK<=n && name##_ascii4(s+k) ) k += 4*MOJI_BLOCK; \
    } \
    if( k+MOJI_REACH>n ) return name##_tail(s, k, n); \
    if( name##_block(s+k) ) return k; \
    k += MOJI_BLOCK; \
  } \
}

#endif /* UTF8EXT_CORE_MOJISCAN_H */
