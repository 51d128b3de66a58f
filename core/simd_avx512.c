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
KL_DEFINE_FIX(avx512_window)

/*
** REPAIR OF DIRTY TEXT WITH VBMI2
**
** kl_fix_window writes a window's output unit by unit: a loop whose trip
** count and branches follow the errors, which the predictor cannot learn
** on text it has not seen, and after it the validator pays a mispredicted
** exit at the next error. Where errors come every few hundred bytes or
** closer, this loop (vb_dirty) takes over: fixed windows with no branch
** on the data at all.
**
**   1. Classify (vb_classify): 64 bytes from q, with the three after
**      them, give as bits the bytes of well-formed characters and the
**      first bytes of ill-formed units. Bytes q+3..q+62 are decided (the
**      three before them are read, which is all a unit start depends on),
**      so the windows step by 60 and no window waits on the one before.
**   2. Emit (vb_emit): each byte gets 3 slots (192 slots, three vectors).
**      A byte of a character keeps its first slot; the first byte of an
**      ill-formed unit keeps all three, which hold the replacement. PDEP
**      spreads the two masks over the slots, VPERMB the bytes, and
**      VPCOMPRESSB packs what stays: one store per vector.
**
** The loop starts at an error that came soon (VB_NEAR bytes) after the
** last, and hands back to the validator after VB_CLEAN windows in a row
** without an error, at the last unit start of the last window. A lone
** error goes to kl_fix_window as before. The figures that chose these
** numbers are in docs/speed.md.
**
** Stores: each is a whole vector at out+*o. Vector j of a window at q
** starts at the output of a byte before s+q+22*j+1, and the output of
** s[x..n) is at least n-x-3 bytes long for any x (core/simd_kl.h,
** "REPAIR"). A window runs only when q+3+VB_AHEAD<=n, so at least
** 195-45-3 = 147 >= 64 bytes of output follow where every store starts:
** each lands inside the output, and what it writes past the window's own
** is written again.
** Loads reach s[q+66], inside too.
*/
#define VB_TARGET __attribute__((target("avx512f,avx512bw,avx512vbmi,avx512vbmi2,popcnt,bmi2")))
#define VB_AHEAD 192
#define VB_STEP 60
#define VB_NEAR 128     /* an error this close to the last starts the loop */
#define VB_CLEAN 8      /* clean windows in a row that end it */

typedef struct vb_consts {
  __m512i from[3], rep[3];
  __m512i first_lo, first_span, need;
} vb_consts;

/* slot k of the 189: the byte it comes from (k/3), and its place (k%3) */
static const uint8_t vb_from[192] = {
#define VB3(i) i, i, i
#define VB12(i) VB3(i), VB3(i+1), VB3(i+2), VB3(i+3)
  VB12(0), VB12(4), VB12(8), VB12(12), VB12(16), VB12(20), VB12(24), VB12(28),
  VB12(32), VB12(36), VB12(40), VB12(44), VB12(48), VB12(52), VB12(56), VB12(60)
#undef VB12
#undef VB3
};
static const uint8_t vb_place[192] = {
#define VB12 0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2
  VB12, VB12, VB12, VB12, VB12, VB12, VB12, VB12,
  VB12, VB12, VB12, VB12, VB12, VB12, VB12, VB12
#undef VB12
};

/*
** Per lead byte C0-FF (VPERMB reads the low 6 bits): the range of its first
** continuation byte as lo and lo+span (Table 3-7 of the Unicode Standard),
** and bits for how many continuation bytes it needs (1: one, 2: two, 4:
** three). C0, C1 and F5-FF start no character: need 0, and a range that
** only 01 fills, which is not a continuation byte and so takes nothing.
*/
static const uint8_t vb_first_lo[64] = {
  0x01, 0x01, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
  0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
  0xA0, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80,
  0x90, 0x80, 0x80, 0x80, 0x80, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01
};
static const uint8_t vb_first_span[64] = {
  0x00, 0x00, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F,
  0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F,
  0x1F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x3F, 0x1F, 0x3F, 0x3F,
  0x2F, 0x3F, 0x3F, 0x3F, 0x0F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00
};
static const uint8_t vb_need[64] = {
  0x00, 0x00, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01,
  0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01, 0x01,
  0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02, 0x02,
  0x04, 0x04, 0x04, 0x04, 0x04, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00
};

/*
** The window at w (bytes w[0..66] are read): as bits, the bytes of
** well-formed characters (*good) and the first bytes of ill-formed units
** (*bad). Bits 3..62 are exact for any w, since whether a continuation byte
** starts a unit depends only on the 3 bytes before it; bits 0..2 are not
** (their bytes are read as if a value started at w).
*/
static inline VB_TARGET __m512i vb_classify(const vb_consts *c, const unsigned char *w,
                                            uint64_t *good, uint64_t *bad, uint64_t *starts){
  __m512i b0 = _mm512_loadu_si512((const void*)w);
  __m512i b1 = _mm512_loadu_si512((const void*)(w+1));
  __m512i b2 = _mm512_loadu_si512((const void*)(w+2));
  __m512i b3 = _mm512_loadu_si512((const void*)(w+3));
  __m512i below_c0 = _mm512_set1_epi8(-64);     /* signed: 00-7F and C0-FF are not */
  __mmask64 lead = _mm512_cmpge_epu8_mask(b0, _mm512_set1_epi8((char)0xC0));
  __m512i need = _mm512_permutexvar_epi8(b0, c->need);
  __m512i d = _mm512_sub_epi8(b1, _mm512_permutexvar_epi8(b0, c->first_lo));
  /* leads whose first continuation is there, in range */
  __mmask64 f1 = _mm512_mask_cmple_epu8_mask(lead, d, _mm512_permutexvar_epi8(b0, c->first_span));
  __mmask64 n23 = _mm512_mask_test_epi8_mask(f1, need, _mm512_set1_epi8(6));
  __mmask64 n3 = _mm512_mask_test_epi8_mask(f1, need, _mm512_set1_epi8(4));
  __mmask64 v2 = _mm512_mask_test_epi8_mask(f1, need, _mm512_set1_epi8(1));
  __mmask64 a = _mm512_mask_cmplt_epi8_mask(n23, b2, below_c0);  /* 2 taken */
  __mmask64 v4 = _mm512_mask_cmplt_epi8_mask(a & n3, b3, below_c0);
  uint64_t v3 = (uint64_t)(a & ~n3);
  uint64_t whole = (uint64_t)v2 | v3 | (uint64_t)v4;    /* leads of characters */
  uint64_t ascii = ~(uint64_t)_mm512_movepi8_mask(b0);
  uint64_t cont = (uint64_t)_mm512_cmplt_epi8_mask(b0, below_c0);
  uint64_t taken = ((uint64_t)f1<<1) | ((uint64_t)a<<2) | ((uint64_t)v4<<3);
  *good = ascii | whole | (whole<<1) | ((v3|(uint64_t)v4)<<2) | ((uint64_t)v4<<3);
  *starts = ~(cont & taken);
  *bad = *starts & ~*good;
  return b0;
}

/*
** The output of the window's bytes good (their own) and bad (a replacement
** each) at out+*o, or only its length when out is NULL. Which slots stay,
** and which hold the replacement, are the masks spread out by PDEP: byte i
** goes to slot 3i, and a byte to replace fills its three slots (times 7:
** the bits are 3 apart, so nothing carries). Slot 64j of vector j is byte
** 21's second slot (j=1) or byte 42's third (j=2), hence the extra terms.
*/
#define VB_SLOTS0 0x9249249249249249ull   /* bits 0, 3, ..., 63 */
#define VB_SLOTS1 0x4924924924924924ull   /* bits 2, 5, ..., 62 */
#define VB_SLOTS2 0x2492492492492492ull   /* bits 1, 4, ..., 61 */
static inline VB_TARGET void vb_emit(const vb_consts *c, __m512i b,
                                     uint64_t good, uint64_t bad,
                                     unsigned char *out, size_t *o){
  uint64_t rep0, rep1, rep2, keep0, keep1, keep2;
  if( !out ){
    *o += (size_t)__builtin_popcountll(good) + 3*(size_t)__builtin_popcountll(bad);
    return;
  }
  rep0 = _pdep_u64(bad, VB_SLOTS0)*7;
  rep1 = _pdep_u64(bad>>22, VB_SLOTS1)*7 | ((bad>>21)&1)*3;
  rep2 = _pdep_u64(bad>>43, VB_SLOTS2)*7 | ((bad>>42)&1);
  keep0 = _pdep_u64(good, VB_SLOTS0) | rep0;
  keep1 = _pdep_u64(good>>22, VB_SLOTS1) | rep1;
  keep2 = _pdep_u64(good>>43, VB_SLOTS2) | rep2;
#define VB_CHUNK(j) do{ \
    __m512i v = _mm512_mask_mov_epi8(_mm512_permutexvar_epi8(c->from[j], b), \
                                     (__mmask64)rep##j, c->rep[j]); \
    _mm512_storeu_si512((void*)(out+*o), _mm512_maskz_compress_epi8((__mmask64)keep##j, v)); \
    *o += (size_t)__builtin_popcountll(keep##j); \
  }while(0)
  VB_CHUNK(0); VB_CHUNK(1); VB_CHUNK(2);
#undef VB_CHUNK
}

static inline VB_TARGET size_t vb_dirty(const unsigned char *s, size_t e, size_t n,
                                        const unsigned char *r, unsigned char *out,
                                        size_t *o, int *warm, size_t *last){
  const uint64_t decided = (~0ull<<3) & (~0ull>>1);   /* bits 3..62 */
  vb_consts c;
  __m512i r3 = _mm512_maskz_loadu_epi8(7, (const void*)r);
  __m512i b;
  uint64_t good, bad, starts;
  size_t q, oo = *o;
  int j, clean = 0;
  /*
  ** An error far from the last: likely alone, and kl_fix_window (one
  ** window, then the validator right after it) costs least. An error
  ** soon after the last: the text is dirty, so stay in windows until
  ** VB_CLEAN of them in a row hold no error.
  */
  if( e<3 || e+VB_AHEAD>n || e-*last>=VB_NEAR ){
    *last = kl_fix_window(s, e, r, out, o, warm);
    return *last;
  }
  for(j=0; j<3; j++){
    __m512i place = _mm512_loadu_si512((const void*)(vb_place+64*j));
    c.from[j] = _mm512_loadu_si512((const void*)(vb_from+64*j));
    c.rep[j] = _mm512_permutexvar_epi8(place, r3);
  }
  c.first_lo = _mm512_loadu_si512((const void*)vb_first_lo);
  c.first_span = _mm512_loadu_si512((const void*)vb_first_span);
  c.need = _mm512_loadu_si512((const void*)vb_need);
  *warm = 0;
  /*
  ** Each window is read before the one before it is written: loads that
  ** come after stores in program order can be held back when their
  ** addresses look like the stores' (the output trails the input by a
  ** few bytes), and then window after window would wait on the last.
  */
  q = e-3;
  b = vb_classify(&c, s+q, &good, &bad, &starts);
  for(;;){
    __m512i b_next;
    uint64_t good_next, bad_next, starts_next;
    good &= decided;
    bad &= decided;
    clean = (clean+1) * (bad==0);       /* no branch: errors come at random */
    if( clean>=VB_CLEAN || q+VB_STEP+3+VB_AHEAD>n ){
      /* the last window ends at its last unit start (59..62) */
      size_t end = 63 - (size_t)__builtin_clzll(starts & decided);
      uint64_t live = KL_BELOW(end);
      vb_emit(&c, b, good & live, bad & live, out, &oo);
      *o = oo;
      *last = q+end;
      return q+end;
    }
    b_next = vb_classify(&c, s+q+VB_STEP, &good_next, &bad_next, &starts_next);
    vb_emit(&c, b, good, bad, out, &oo);
    q += VB_STEP;
    b = b_next;
    good = good_next;
    bad = bad_next;
    starts = starts_next;
  }
}

VB_TARGET size_t utf8_fix_avx512_vbmi2(const unsigned char *s, size_t n,
                                       const unsigned char *r, size_t rlen,
                                       int per_byte, unsigned char *out){
  return rlen==3 ? kl_fix(s, n, r, 3, per_byte, out, 1, vb_dirty)
                 : kl_fix(s, n, r, rlen, per_byte, out, 0, vb_dirty);
}

KL_TARGET size_t utf8_fix_avx512(const unsigned char *s, size_t n,
                                 const unsigned char *r, size_t rlen,
                                 int per_byte, unsigned char *out){
  return utf8_cpu_has_avx512_vbmi2() ? utf8_fix_avx512_vbmi2(s, n, r, rlen, per_byte, out)
                                     : utf8_fix_avx512_window(s, n, r, rlen, per_byte, out);
}

const utf8_impl utf8_impl_avx512 = {
  "avx512", utf8_cpu_has_avx512, utf8_find_error_avx512, utf8_find_error_count_avx512,
  utf8_fix_avx512
};

/* utf8_moji_possible()'s block scan (core/mojiscan.h), built for AVX-512:
** the same C as the baseline copy, a whole 64-byte block per vector. */
#include "mojiscan.h"
size_t utf8_moji_scan_avx512(const unsigned char *s, size_t n);
MOJI_SCAN_DEFINE(utf8_moji_scan_avx512, __attribute__((target("avx512f,avx512bw"))), 64)
