/*
** core/simd_kl.h - the vector UTF-8 validator, written once over an
** abstract vector of KL_BYTES bytes and included by each instruction-set
** file (simd_sse4.c, simd_avx2.c, simd_avx512.c, simd_neon.c), which first
** defines the vector type and the dozen small operations listed below.
**
** THE ALGORITHM (Keiser & Lemire, "Validating UTF-8 In Less Than One
** Instruction Per Byte", 2021)
**
** Every error of UTF-8 shows in a window of at most four bytes. Most show
** in two: a byte and the one before it. For each byte position we look up
** three 16-entry tables - by the high nibble of the previous byte, by the
** low nibble of the previous byte, and by the high nibble of this byte -
** and AND the three results. Each bit of a table entry stands for one
** error class (below); a class survives the AND only when all three
** nibbles match its pattern, so one AND tests eight patterns at once.
**
** Two things a pair of bytes cannot tell: whether a continuation byte after
** a continuation byte is legal (it is when it is the 3rd or 4th byte of a
** sequence), and whether the input stops inside a sequence. For the first,
** the tables flag every continuation-after-continuation (TWO_CONTS, bit 7)
** and a separate test marks the bytes that must be 3rd or 4th bytes
** (two bytes after E0-FF, or three after F0-FF); the XOR of the two is
** an error where they disagree. For the second, the last three bytes of a
** block are compared with the largest bytes that may end a complete
** input (a lead can't be last, a 3/4-byte lead can't be second to last,
** a 4-byte lead can't be third to last). Both need the previous block's
** last bytes, which the loop carries along.
**
** EXACT ANSWERS
**
** The vector code flags bytes. All bytes before the first flagged one, k,
** are a well-formed prefix but for a sequence that may still be open at
** its end, and byte k is wrong where it stands. So the first ill-formed
** unit is that open sequence if there is one, else byte k itself: a look
** at most three bytes back (kl_exact) gives the offset the scalar
** validator gives, in a few mask operations however long the value.
** test/simd_test.c checks the two agree.
**
** The last block is loaded zero-padded (kl_load_partial, which never
** reads past the end), so it runs the same code: the zeros are ASCII, and
** a sequence cut short by the end fails against them as TOO_SHORT.
**
** WHAT THE INCLUDING FILE DEFINES
**
**   KL_BYTES          bytes per vector: 16, 32 or 64
**   KL_TARGET         the function attribute that enables the instructions
**   kl_vec            the vector type
**   kl_load(p)        KL_BYTES bytes from p, unaligned
**   kl_load_partial(p,r)  r bytes from p (0<r<=KL_BYTES), then zeros
**   kl_store(p,v)     KL_BYTES bytes to p, unaligned (the repair loop)
**   kl_zero(), kl_splat(b)
**   kl_table(t)       the 16 bytes t[0..16) repeated in every 16-byte lane
**   kl_lookup(t,i)    t[i] per byte, i in 0..15 (PSHUFB / TBL)
**   kl_shr4(v)        each byte shifted right by 4
**   kl_and, kl_or, kl_xor, kl_subs (unsigned saturating subtract)
**   kl_prev1/2/3(v,p) v moved up 1/2/3 bytes, the gap filled from the
**                     end of p (the previous block)
**   kl_any(v)         1 when some byte is not zero
**   kl_top_bits(v)    bit j set when byte j has its top bit set
**   kl_nonzero_bits(v)  bit j set when byte j is not zero
**   KL_PREV_LOADS     (optional) read the moved-up copies of a block from
**                     memory rather than shuffle them (kl_block_errors_at)
*/
#ifndef UTF8EXT_CORE_SIMD_KL_H
#define UTF8EXT_CORE_SIMD_KL_H

#include "impl.h"

#include <stddef.h>
#include <stdint.h>
#include <string.h>

/*
** The error classes, one bit each. The pattern is "previous byte, this
** byte"; _ is any bit. A class is looked up by three nibbles, so its
** bit is set in the rows of each table that its pattern allows.
*/
#define KL_TOO_SHORT      0x01 /* 11______ 0_______ : lead, then no continuation */
                               /* 11______ 11______ */
#define KL_TOO_LONG       0x02 /* 0_______ 10______ : continuation after ASCII */
#define KL_OVERLONG_3     0x04 /* 11100000 100_____ : E0 80-9F */
#define KL_TOO_LARGE      0x08 /* 11110100 1001____ : F4 90-9F */
                               /* 11110100 101_____ : F4 A0-BF */
                               /* 11110101+ 1001____ / 101_____ : F5-FF 90-BF */
#define KL_SURROGATE      0x10 /* 11101101 101_____ : ED A0-BF */
#define KL_OVERLONG_2     0x20 /* 1100000_ 10______ : C0 or C1, then 80-BF */
#define KL_TOO_LARGE_1000 0x40 /* 11110101+ 1000____ : F5-FF 80-8F */
#define KL_OVERLONG_4     0x40 /* 11110000 1000____ : F0 80-8F */
#define KL_TWO_CONTS      0x80 /* 10______ 10______ : legal only as 3rd/4th byte */

/* The classes whose pattern says nothing of the previous byte's low nibble. */
#define KL_ANY_LOW (KL_TOO_SHORT|KL_TOO_LONG|KL_TWO_CONTS)

/* Looked up by the high nibble of the previous byte. */
static const uint8_t kl_prev_high[16] = {
  KL_TOO_LONG,                                  /* 0___ ASCII */
  KL_TOO_LONG,                                  /* 0001 */
  KL_TOO_LONG,                                  /* 0010 */
  KL_TOO_LONG,                                  /* 0011 */
  KL_TOO_LONG,                                  /* 0100 */
  KL_TOO_LONG,                                  /* 0101 */
  KL_TOO_LONG,                                  /* 0110 */
  KL_TOO_LONG,                                  /* 0111 */
  KL_TWO_CONTS,                                 /* 1000 continuation */
  KL_TWO_CONTS,                                 /* 1001 continuation */
  KL_TWO_CONTS,                                 /* 1010 continuation */
  KL_TWO_CONTS,                                 /* 1011 continuation */
  KL_TOO_SHORT|KL_OVERLONG_2,                   /* 1100 C0-CF: 2-byte lead */
  KL_TOO_SHORT,                                 /* 1101 D0-DF: 2-byte lead */
  KL_TOO_SHORT|KL_OVERLONG_3|KL_SURROGATE,      /* 1110 E0-EF: 3-byte lead */
  KL_TOO_SHORT|KL_TOO_LARGE|KL_TOO_LARGE_1000|KL_OVERLONG_4, /* 1111 F0-FF */
};

/* Looked up by the low nibble of the previous byte. */
static const uint8_t kl_prev_low[16] = {
  KL_ANY_LOW|KL_OVERLONG_2|KL_OVERLONG_3|KL_OVERLONG_4, /* ____0000 C0 E0 F0 */
  KL_ANY_LOW|KL_OVERLONG_2,                     /* ____0001 C1 */
  KL_ANY_LOW,                                   /* ____0010 */
  KL_ANY_LOW,                                   /* ____0011 */
  KL_ANY_LOW|KL_TOO_LARGE,                      /* ____0100 F4 */
  KL_ANY_LOW|KL_TOO_LARGE|KL_TOO_LARGE_1000,    /* ____0101 F5 */
  KL_ANY_LOW|KL_TOO_LARGE|KL_TOO_LARGE_1000,    /* ____0110 F6 */
  KL_ANY_LOW|KL_TOO_LARGE|KL_TOO_LARGE_1000,    /* ____0111 F7 */
  KL_ANY_LOW|KL_TOO_LARGE|KL_TOO_LARGE_1000,    /* ____1000 F8 */
  KL_ANY_LOW|KL_TOO_LARGE|KL_TOO_LARGE_1000,    /* ____1001 F9 */
  KL_ANY_LOW|KL_TOO_LARGE|KL_TOO_LARGE_1000,    /* ____1010 FA */
  KL_ANY_LOW|KL_TOO_LARGE|KL_TOO_LARGE_1000,    /* ____1011 FB */
  KL_ANY_LOW|KL_TOO_LARGE|KL_TOO_LARGE_1000,    /* ____1100 FC */
  KL_ANY_LOW|KL_TOO_LARGE|KL_TOO_LARGE_1000|KL_SURROGATE, /* ____1101 ED FD */
  KL_ANY_LOW|KL_TOO_LARGE|KL_TOO_LARGE_1000,    /* ____1110 FE */
  KL_ANY_LOW|KL_TOO_LARGE|KL_TOO_LARGE_1000,    /* ____1111 FF */
};

/* Looked up by the high nibble of this byte. */
static const uint8_t kl_this_high[16] = {
  KL_TOO_SHORT,                                 /* 0000 ASCII */
  KL_TOO_SHORT,                                 /* 0001 */
  KL_TOO_SHORT,                                 /* 0010 */
  KL_TOO_SHORT,                                 /* 0011 */
  KL_TOO_SHORT,                                 /* 0100 */
  KL_TOO_SHORT,                                 /* 0101 */
  KL_TOO_SHORT,                                 /* 0110 */
  KL_TOO_SHORT,                                 /* 0111 */
  KL_TOO_LONG|KL_TWO_CONTS|KL_OVERLONG_2|KL_OVERLONG_3
    |KL_TOO_LARGE_1000|KL_OVERLONG_4,           /* 1000 80-8F */
  KL_TOO_LONG|KL_TWO_CONTS|KL_OVERLONG_2|KL_OVERLONG_3
    |KL_TOO_LARGE,                              /* 1001 90-9F */
  KL_TOO_LONG|KL_TWO_CONTS|KL_OVERLONG_2|KL_SURROGATE
    |KL_TOO_LARGE,                              /* 1010 A0-AF */
  KL_TOO_LONG|KL_TWO_CONTS|KL_OVERLONG_2|KL_SURROGATE
    |KL_TOO_LARGE,                              /* 1011 B0-BF */
  KL_TOO_SHORT,                                 /* 1100 C0-CF: a lead */
  KL_TOO_SHORT,                                 /* 1101 D0-DF: a lead */
  KL_TOO_SHORT,                                 /* 1110 E0-EF: a lead */
  KL_TOO_SHORT,                                 /* 1111 F0-FF: a lead */
};

/*
** The largest byte that may stand at each of the last three places of a
** complete input, in the last bytes of a 64-byte row (a narrower vector
** loads the row's tail). Subtracting it with saturation leaves a non-zero
** byte exactly where a sequence is still open.
*/
static const uint8_t kl_end_limits[64] = {
  0xFF,0xFF,0xFF,0xFF,0xFF,0xFF,0xFF,0xFF, 0xFF,0xFF,0xFF,0xFF,0xFF,0xFF,0xFF,0xFF,
  0xFF,0xFF,0xFF,0xFF,0xFF,0xFF,0xFF,0xFF, 0xFF,0xFF,0xFF,0xFF,0xFF,0xFF,0xFF,0xFF,
  0xFF,0xFF,0xFF,0xFF,0xFF,0xFF,0xFF,0xFF, 0xFF,0xFF,0xFF,0xFF,0xFF,0xFF,0xFF,0xFF,
  0xFF,0xFF,0xFF,0xFF,0xFF,0xFF,0xFF,0xFF, 0xFF,0xFF,0xFF,0xFF,0xFF,
  0xEF,  /* third to last: no F0-FF, a 4-byte lead needs 3 more */
  0xDF,  /* second to last: no E0-FF, a 3-byte lead needs 2 more */
  0xBF   /* last: no C0-FF, every lead needs at least 1 more */
};

/*
** The constants one block needs, built once per call.
*/
typedef struct kl_consts {
  kl_vec prev_high, prev_low, this_high; /* the three tables */
  kl_vec low_nibble;                     /* 0x0F in every byte */
  kl_vec at_least_c0;   /* 0xC0-0x80: a saturating subtraction of it */
  kl_vec at_least_e0;   /* leaves the top bit set for bytes C0-FF, and */
  kl_vec at_least_f0;   /* likewise for E0-FF and F0-FF */
  kl_vec top_bit;                        /* 0x80 in every byte */
  kl_vec end_limits;                     /* kl_end_limits, last KL_BYTES */
} kl_consts;

static inline KL_TARGET kl_consts kl_consts_init(void){
  kl_consts k;
  k.prev_high = kl_table(kl_prev_high);
  k.prev_low = kl_table(kl_prev_low);
  k.this_high = kl_table(kl_this_high);
  k.low_nibble = kl_splat(0x0F);
  k.at_least_c0 = kl_splat(0xC0-0x80);
  k.at_least_e0 = kl_splat(0xE0-0x80);
  k.at_least_f0 = kl_splat(0xF0-0x80);
  k.top_bit = kl_splat(0x80);
  k.end_limits = kl_load(kl_end_limits + 64 - KL_BYTES);
  return k;
}

/*
** The error bytes of block in, given the same block moved up 1, 2 and 3
** bytes (prev1..prev3, the gap filled from the block before): zero
** everywhere when every byte pair is legal and every byte that must be a
** 3rd or 4th byte of a sequence is one and vice versa.
*/
static inline KL_TARGET kl_vec kl_errors(const kl_consts *k, kl_vec in,
                                         kl_vec prev1, kl_vec prev2, kl_vec prev3){
  kl_vec by_prev_high = kl_lookup(k->prev_high, kl_shr4(prev1));
  kl_vec by_prev_low = kl_lookup(k->prev_low, kl_and(prev1, k->low_nibble));
  kl_vec by_this_high = kl_lookup(k->this_high, kl_shr4(in));
  kl_vec pair_errors = kl_and(kl_and(by_prev_high, by_prev_low), by_this_high);
  /*
  ** A byte two after E0-FF is a 3rd byte, three after F0-FF a 4th: the
  ** saturating subtraction leaves 0x80 or more exactly for those, so the
  ** top bit marks the bytes that must follow a continuation byte. It
  ** must agree with KL_TWO_CONTS, which is also the top bit.
  */
  kl_vec third = kl_subs(prev2, k->at_least_e0);
  kl_vec fourth = kl_subs(prev3, k->at_least_f0);
  kl_vec must_follow_cont = kl_and(kl_or(third, fourth), k->top_bit);
  return kl_xor(must_follow_cont, pair_errors);
}

/* kl_errors of in, whose predecessor block was prev. */
static inline KL_TARGET kl_vec kl_block_errors(const kl_consts *k,
                                               kl_vec in, kl_vec prev){
  return kl_errors(k, in, kl_prev1(in, prev), kl_prev2(in, prev), kl_prev3(in, prev));
}

/*
** kl_errors of the full block in at p, which has 3 bytes before it, with
** the moved copies read from memory. Where shuffles are the bottleneck
** (they are for 64-byte vectors) three unaligned loads are cheaper than
** moving bytes across lanes; a file that wants this defines KL_PREV_LOADS.
*/
static inline KL_TARGET kl_vec kl_block_errors_at(const kl_consts *k, kl_vec in,
                                                  kl_vec prev, const unsigned char *p){
#ifdef KL_PREV_LOADS
  (void)prev;
  return kl_errors(k, in, kl_load(p-1), kl_load(p-2), kl_load(p-3));
#else
  (void)p;
  return kl_block_errors(k, in, prev);
#endif
}

/* 1 when no byte of v has its top bit set. */
static inline KL_TARGET int kl_is_ascii(kl_vec v){ return kl_top_bits(v)==0; }

/* Non-zero at a lead byte that in's last bytes leave open. */
static inline KL_TARGET kl_vec kl_open_at_end(const kl_consts *k, kl_vec in){
  return kl_subs(in, k->end_limits);
}

/*
** The offset of the first ill-formed unit, given the block in at s[at],
** the block before it, and flags: a bit per byte of in, set where that
** byte was found wrong (not zero). Let k be the first flagged byte.
** Everything before it is well-formed save for a sequence that may be
** open at its end, and byte k (or the end of the input) is wrong there.
** If a lead byte 1, 2 or 3 places before k asks for bytes up to k or
** beyond, that open sequence is the ill-formed unit (byte k can't continue
** it, or is out of its allowed range); at most one can (two would have
** been flagged before k). Otherwise every character before k is complete
** and byte k is a stray continuation byte.
**
** The leads are found in the moved-up copies of the block, so the answer
** costs a few mask operations once the flags are known, and no load that
** waits on k. test/simd_test.c checks that it is the scalar validator's.
*/
static inline KL_TARGET size_t kl_exact(const kl_consts *k, size_t at,
                                        kl_vec in, kl_vec prev, uint64_t flags){
  uint64_t first = flags & (0-flags);                    /* k's bit */
  uint64_t lead1 = kl_top_bits(kl_subs(kl_prev1(in, prev), k->at_least_c0));
  uint64_t lead2 = kl_top_bits(kl_subs(kl_prev2(in, prev), k->at_least_e0));
  uint64_t lead3 = kl_top_bits(kl_subs(kl_prev3(in, prev), k->at_least_f0));
  size_t back = (size_t)((lead1 & first)!=0) + 2*(size_t)((lead2 & first)!=0)
              + 3*(size_t)((lead3 & first)!=0);
  return at + (size_t)__builtin_ctzll(flags) - back;
}

/*
** Continuation bytes (80-BF) as a bit per byte. A file may define its own
** kl_cont_bits (one signed compare where there is one) and say so with
** KL_HAVE_CONT_BITS; this one needs only the operations above: bytes
** 80-BF have the top bit set, and after a saturating subtraction of 0x40
** only bytes C0-FF still have it.
*/
#ifndef KL_HAVE_CONT_BITS
static inline KL_TARGET uint64_t kl_cont_bits(kl_vec v){
  return kl_top_bits(v) & ~kl_top_bits(kl_subs(v, kl_splat(0x40)));
}
#endif

/*
** Continuation bytes of s[0..e), given conts, those of s[0..at), and the
** block in at s[at] in which the error at e was found. e is at most three
** bytes before at (kl_exact looks back to the open sequence's lead), and
** then those bytes, counted with the block before, are taken back off.
*/
static inline KL_TARGET size_t kl_conts_to(const unsigned char *s, size_t at,
                                           size_t e, kl_vec in, size_t conts){
  if( e>=at ){
    uint64_t below_e = e-at>=64 ? ~0ull : (1ull<<(e-at))-1;
    return conts + (size_t)__builtin_popcountll(kl_cont_bits(in) & below_e);
  }
  for(; e<at; e++) conts -= (s[e] & 0xC0)==0x80;
  return conts;
}

/*
** The validator: the offset of the first ill-formed unit of s[0..n), or
** n. ASCII runs are skipped four blocks at a time; other blocks go
** through kl_errors with the previous block carried along. The
** last block (1 to KL_BYTES bytes, zero-padded) also flags a sequence
** open at the end, at its lead byte, so that every error of a short
** value leaves by the same one test.
**
** With conts not NULL it also counts, in *conts, the continuation bytes
** before the answer, so that the characters of the well-formed prefix
** (its bytes less its continuation bytes) come in the same pass: one
** compare and a POPCNT per non-ASCII block, none for ASCII. Both uses
** are compiled from this one body (always inlined, conts a constant).
**
** kl_validate_from starts at s+i0 (i0<n), a unit boundary, as if s began
** there (the bytes before it are not read), with constants built by the
** caller: the repair loop (kl_fix) calls it once per well-formed stretch.
** Its answer is an offset into s; *conts counts from s+i0. With warm set,
** s+i0 need not be a unit boundary: the block before it is read
** (i0>=KL_BYTES) as in the middle of a value, which is right when its
** last three bytes belong to well-formed characters (one of which may
** go on at s+i0).
** With to not NULL, each whole block is also stored at to, at its offset
** from s+i0, as soon as it is loaded (the repair loop's output: no second
** pass over a stretch to copy it), and *stored says where that ends.
*/
static inline __attribute__((always_inline)) KL_TARGET
size_t kl_validate_from(const kl_consts *kp, const unsigned char *s,
                        size_t i0, size_t n, size_t *conts, int warm,
                        unsigned char *to, size_t *stored){
  kl_consts k = *kp;
  kl_vec prev = kl_zero();       /* the block before s+i (zeros: ASCII) */
  kl_vec open = kl_zero();       /* non-zero if prev ends inside a sequence */
  kl_vec in, err;
  size_t i = i0, e;
  size_t c = 0;                  /* continuation bytes of s[i0..i) */

  if( warm ){
    prev = kl_load(s+i0-KL_BYTES);
    open = kl_open_at_end(&k, prev);
  }

  while( i+KL_BYTES<n ){
    in = kl_load(s+i);
    if( to ){
      kl_store(to+(i-i0), in);
      *stored = i+KL_BYTES;
    }
    if( kl_is_ascii(in) ){
      /* ASCII right after an open sequence is its missing continuation. */
      if( kl_any(open) ){
        e = kl_exact(&k, i, in, prev, 1);
        if( conts ) *conts = kl_conts_to(s, i, e, in, c);
        return e;
      }
      i += KL_BYTES;
      while( i+4*KL_BYTES<n ){
        kl_vec a = kl_load(s+i), b = kl_load(s+i+KL_BYTES);
        kl_vec c2 = kl_load(s+i+2*KL_BYTES), d = kl_load(s+i+3*KL_BYTES);
        if( !kl_is_ascii(kl_or(kl_or(a, b), kl_or(c2, d))) ) break;
        if( to ){
          kl_store(to+(i-i0), a);
          kl_store(to+(i-i0)+KL_BYTES, b);
          kl_store(to+(i-i0)+2*KL_BYTES, c2);
          kl_store(to+(i-i0)+3*KL_BYTES, d);
          *stored = i+4*KL_BYTES;
        }
        i += 4*KL_BYTES;
      }
      prev = kl_zero();
      open = kl_zero();
      continue;
    }
    err = i!=i0 || warm ? kl_block_errors_at(&k, in, prev, s+i)
                        : kl_block_errors(&k, in, prev);
    if( kl_any(err) ){
      e = kl_exact(&k, i, in, prev, kl_nonzero_bits(err));
      if( conts ) *conts = kl_conts_to(s, i, e, in, c);
      return e;
    }
    if( conts ) c += (size_t)__builtin_popcountll(kl_cont_bits(in));
    open = kl_open_at_end(&k, in);
    prev = in;
    i += KL_BYTES;
  }

  /*
  ** The last block. The end limits flag only leads that need more bytes
  ** than the block holds after them, so they are open at the end however
  ** short the block (the zero padding flags them too).
  */
  in = kl_load_partial(s+i, n-i);
  err = kl_or(kl_block_errors(&k, in, prev), kl_open_at_end(&k, in));
  if( kl_any(err) ){
    e = kl_exact(&k, i, in, prev, kl_nonzero_bits(err));
    if( conts ) *conts = kl_conts_to(s, i, e, in, c);
    return e;
  }
  /* the zero padding holds no continuation byte */
  if( conts ) *conts = c + (size_t)__builtin_popcountll(kl_cont_bits(in));
  return n;
}

static inline __attribute__((always_inline)) KL_TARGET
size_t kl_validate(const unsigned char *s, size_t n, size_t *conts){
  kl_consts k = kl_consts_init();
  if( n==0 ){
    if( conts ) *conts = 0;
    return 0;
  }
  return kl_validate_from(&k, s, 0, n, conts, 0, 0, 0);
}

static KL_TARGET size_t kl_find_error(const unsigned char *s, size_t n){
  return kl_validate(s, n, 0);
}

/* The offset, as kl_find_error, and in *chars the characters before it. */
static KL_TARGET size_t kl_find_error_count(const unsigned char *s, size_t n,
                                            size_t *chars){
  size_t conts, e = kl_validate(s, n, &conts);
  *chars = e - conts;
  return e;
}

/*
** REPAIR (utf8_fix; core/fix.c says what it does)
**
** kl_fix is utf8_fix for a replacement of 3 bytes or more, written once
** per unit or once per byte. The validator runs from one error to the
** next with its constants built once, storing each block it reads to the
** output (what is left of a stretch in the last block is copied). At an
** error, the default case (3 bytes, once per unit) reads the run of
** errors as a window of masks (kl_fix_window, below); the others segment
** it unit by unit with utf8_unit_len (utf8_decode_unit's lengths with few
** branches). The validator then starts again after it.
**
** Blocks, and a short stretch copied as one vector, may write past the
** stretch's end. That is safe because such a replacement never makes a
** unit shorter (a unit is at most 3 bytes): the output of s[j..n), j a
** unit boundary, is at least n-j bytes long, so a vector stored at the
** output of s+j with j+KL_BYTES<=n stays inside the output, and the bytes
** it writes past the stretch are written again by what follows.
*/

/* Copy s[i..e) (e>i) to out; n is where s ends. */
static inline KL_TARGET void kl_copy_stretch(unsigned char *out, const unsigned char *s,
                                             size_t i, size_t e, size_t n){
  size_t len = e-i, j;
  if( len<=KL_BYTES ){
    if( i+KL_BYTES<=n ) kl_store(out, kl_load(s+i));
    else memcpy(out, s+i, len);
  }else if( len<=8*KL_BYTES ){
    /* whole vectors, the last one ending where the stretch ends */
    for(j=0; j+KL_BYTES<len; j+=KL_BYTES) kl_store(out+j, kl_load(s+i+j));
    kl_store(out+len-KL_BYTES, kl_load(s+e-KL_BYTES));
  }else{
    memcpy(out, s+i, len);     /* long: the C library's copy is the fastest */
  }
}

/* Append the replacement r[0..rlen) (rlen 3 when three is 1, a constant). */
static inline KL_TARGET void kl_put(unsigned char *out, size_t *o,
                                    const unsigned char *r, size_t rlen, int three){
  if( out ){
    if( three ) memcpy(out+*o, r, 3);
    else memcpy(out+*o, r, rlen);
  }
  *o = utf8_add_sat(*o, three ? 3 : rlen);
}

/*
** Dirty text, read as a window instead of unit by unit. Unit by unit, each
** length waits on the one before and each error's bytes steer branches
** the predictor cannot learn. A window is the KL_W=KL_BYTES-1 bytes from
** p, a unit boundary (bytes before it are not looked at), read with the
** three after them; it gives, as a bit per byte, with masks only:
**
**   good    bytes of well-formed characters;
**   starts  where units start: every byte that is not a continuation
**           byte, and a continuation byte unless a lead 1, 2 or 3 bytes
**           before it takes it in (its maximal subpart reaches it).
**
** A well-formed character is a whole unit, so the ill-formed units are the
** starts that are not good, and the window's output is its good bytes
** with a replacement at each of those (kl_fix_window says where it ends).
*/
#define KL_W (KL_BYTES-1)
#define KL_BELOW(b) ((1ull<<(b))-1)

typedef struct kl_window {
  uint64_t good, starts;     /* bits 0..KL_W-1 are the window's */
} kl_window;

/*
** Bits of bytes with lo<=b<=hi. A file may define its own (a compare into
** a mask register where there is one) and say so with KL_HAVE_IN_RANGE.
*/
#ifndef KL_HAVE_IN_RANGE
static inline KL_TARGET uint64_t kl_in_range(kl_vec v, uint8_t lo, uint8_t hi){
  return ~kl_nonzero_bits(kl_or(kl_subs(kl_splat(lo), v), kl_subs(v, kl_splat(hi))))
       & (KL_BYTES==64 ? ~0ull : KL_BELOW(KL_BYTES%64));
}
#endif

static inline KL_TARGET kl_window kl_read_window(const unsigned char *p){
  kl_vec b0 = kl_load(p), b1 = kl_load(p+1);
  uint64_t here = KL_BELOW(KL_W);
  uint64_t cont0 = kl_cont_bits(b0);
  uint64_t cont1 = kl_cont_bits(b1);
  uint64_t cont2 = kl_cont_bits(kl_load(p+2));
  uint64_t cont3 = kl_cont_bits(kl_load(p+3));
  uint64_t ascii = ~kl_top_bits(b0);
  uint64_t lead2 = kl_in_range(b0, 0xC2, 0xDF) & here;
  uint64_t lead3 = kl_in_range(b0, 0xE0, 0xEF) & here;
  uint64_t lead4 = kl_in_range(b0, 0xF0, 0xF4) & here;
  uint64_t below_a0 = kl_in_range(b1, 0x00, 0x9F);
  uint64_t below_90 = kl_in_range(b1, 0x00, 0x8F);
  /* the first continuation, in the lead's range (Table 3-7) */
  uint64_t first = cont1
    & ~(kl_in_range(b0, 0xE0, 0xE0) & below_a0)
    & ~(kl_in_range(b0, 0xED, 0xED) & ~below_a0)
    & ~(kl_in_range(b0, 0xF0, 0xF0) & below_90)
    & ~(kl_in_range(b0, 0xF4, 0xF4) & ~below_90);
  uint64_t v2 = lead2 & cont1;                      /* whole characters */
  uint64_t p1 = v2 | ((lead3 | lead4) & first);     /* leads taking 1 byte in */
  uint64_t p2 = (lead3 | lead4) & first & cont2;    /* ... taking 2 */
  uint64_t v3 = lead3 & p2;
  uint64_t v4 = lead4 & p2 & cont3;
  uint64_t taken = (p1<<1) | (p2<<2) | (v4<<3);
  kl_window w;
  w.good = ascii | v2 | (v2<<1) | v3 | (v3<<1) | (v3<<2)
         | v4 | (v4<<1) | (v4<<2) | (v4<<3);
  w.starts = ~(cont0 & taken) & here;
  return w;
}

/*
** One step through a window: its good bytes from cur up to the next
** ill-formed unit (or to the window's end, the top bit of *bad), then the
** replacement. Returns 1 when it was a unit, 0 at the end, where a step
** adds nothing (what it stores is written over). The good bytes go as one
** vector: they are fewer than KL_BYTES, and the vector lands inside the
** output (kl_fix says why).
*/
static inline KL_TARGET int kl_window_step(uint64_t good, size_t end, uint64_t *bad,
                                           size_t *cur, const unsigned char *p,
                                           uint16_t r01, uint8_t r2,
                                           unsigned char *out, size_t *o){
  size_t u = (size_t)__builtin_ctzll(*bad);
  size_t g = (size_t)__builtin_ctzll((good & (~0ull<<*cur)) | (1ull<<u));
  int unit = u<end;
  if( out ){
    kl_store(out+*o, kl_load(p+g));
    memcpy(out+*o+(u-g), &r01, 2);
    out[*o+(u-g)+2] = r2;
  }
  *o += u-g + 3*(size_t)unit;
  *bad &= *bad - (uint64_t)unit;
  *cur = u + (size_t)unit;
  return unit;
}

/*
** The window at the error e (a unit boundary): its output, and where the
** validator goes on. When the window's last three bytes are good, that
** is right after the window, with the window as the block before
** (*warm): the next load does not wait on the masks. Otherwise it is at
** the window's last unit start, from scratch.
*/
static inline KL_TARGET size_t kl_fix_window(const unsigned char *s, size_t e,
                                             const unsigned char *r,
                                             unsigned char *out, size_t *o,
                                             int *warm){
  kl_window w = kl_read_window(s+e);
  uint64_t bad = w.starts & ~w.good;
  uint16_t r01;               /* the replacement in registers: the stores */
  uint8_t r2 = r[2];          /* to out could alias r, so it would be read */
  memcpy(&r01, r, 2);         /* again at every unit */
  size_t end = KL_W, cur = 0;
  *warm = e>0 && ((w.good>>(KL_W-3)) & 7)==7;
  if( !*warm ){               /* the last unit start (never 0) */
    end = 63 - (size_t)__builtin_clzll(w.starts & ~1ull);
  }
  bad = (bad & KL_BELOW(end)) | (1ull<<end);
  /* one step without a test; more only for a second unit */
  kl_window_step(w.good, end, &bad, &cur, s+e, r01, r2, out, o);
  while( kl_window_step(w.good, end, &bad, &cur, s+e, r01, r2, out, o) ){}
  return e+end;
}

/*
** What kl_fix calls at an error e (a unit boundary, e+2*KL_BYTES+3<=n) in
** the default case: kl_fix_window, or an implementation's own loop for
** dirty text (simd_avx512.c's, with VBMI2). Same contract: the output of
** the units from e up to the position returned goes at out+*o (out may
** be NULL: lengths only), and *warm is set as kl_fix_window sets it.
** *last is the loop's own (0 at first): where it handed back last time.
*/
typedef size_t (*kl_dirty_fn)(const unsigned char *s, size_t e, size_t n,
                              const unsigned char *r, unsigned char *out,
                              size_t *o, int *warm, size_t *last);

static inline KL_TARGET size_t kl_fix_window_at(const unsigned char *s, size_t e, size_t n,
                                                const unsigned char *r, unsigned char *out,
                                                size_t *o, int *warm, size_t *last){
  (void)n; (void)last;
  return kl_fix_window(s, e, r, out, o, warm);
}

static inline __attribute__((always_inline)) KL_TARGET
size_t kl_fix(const unsigned char *s, size_t n, const unsigned char *r,
              size_t rlen, int per_byte, unsigned char *out, int three,
              kl_dirty_fn dirty){
  kl_consts k = kl_consts_init();
  size_t i = 0;                  /* s[i..n) is next: a unit boundary, */
  int warm = 0;                  /* or right after a window (kl_fix_window) */
  size_t o = 0;                  /* the output of s[0..i) */
  size_t last = 0;               /* the dirty loop's own (kl_dirty_fn) */

  while( i<n ){
    size_t stored = i;           /* s[i..stored) is already at out+o */
    size_t e = warm ? kl_validate_from(&k, s, i, n, 0, 1, out ? out+o : 0, &stored)
                    : kl_validate_from(&k, s, i, n, 0, 0, out ? out+o : 0, &stored);
    if( out && e>stored ) kl_copy_stretch(out+o+(stored-i), s, stored, e, n);
    o = utf8_add_sat(o, e-i);
    if( e>=n ) break;
    /* a window reads 2*KL_BYTES+3 bytes at most (its steps' vectors) */
    if( three && !per_byte && e+2*KL_BYTES+3<=n ){
      i = dirty(s, e, n, r, out, &o, &warm, &last);
      continue;
    }
    warm = 0;
    /* the run of ill-formed units at e (kl_exact: e starts one) */
    do{
      int bad;
      size_t len = utf8_unit_len(s+e, n-e, &bad);
      if( !bad ) break;
      e += len;
      if( per_byte ){
        for(; len; len--) kl_put(out, &o, r, rlen, three);
      }else{
        kl_put(out, &o, r, rlen, three);
      }
    }while( e<n );
    i = e;
  }
  return o;
}

/* The function each implementation file exports as utf8_fix_<name>. */
#define KL_DEFINE_FIX(name) \
  KL_TARGET size_t utf8_fix_##name(const unsigned char *s, size_t n, \
                                   const unsigned char *r, size_t rlen, \
                                   int per_byte, unsigned char *out){ \
    return rlen==3 ? kl_fix(s, n, r, 3, per_byte, out, 1, kl_fix_window_at) \
                   : kl_fix(s, n, r, rlen, per_byte, out, 0, kl_fix_window_at); \
  }

#endif /* UTF8EXT_CORE_SIMD_KL_H */
