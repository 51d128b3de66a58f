/*
** core/reencode.c - UTF-8 that was decoded as a CJK charset ("浣犲ソ" for
** 你好: the UTF-8 bytes of 你好 read as GBK), or as a single-byte one
** ("cafÃ©", "caf├⌐"), put back by encoding it again (core/reencode.h).
**
** A whole reading, priced by the model of real text (core/model.h): the
** value is encoded in the charset (exactly, every character; the encoder
** is the decoder's inverse), the bytes must be well-formed UTF-8 with a
** character of more than one byte, and decoding them again must give the
** value back (so that undoing is exact); then the text they make must
** cost less than the value as it stands by CJK_MOJI_MARGIN. Of the
** charsets, the one whose reading costs least wins.
**
** Why the margin can be wide: a clean CJK text encoded in a CJK charset
** is seldom well-formed UTF-8 at all (a GBK pair has its lead at 81-FE,
** and UTF-8 wants a lead then one to three bytes 80-BF), and when it is,
** what it decodes to is a few stray characters, not text: see
** docs/mojibake.md's CJK section for the figures on the corpus.
*/
#include "reencode.h"
#include "charsets.h"
#include "guess.h"
#include "utf8.h"
#include "model.h"

#include <stdint.h>
#include <string.h>

/* The charsets tried, in order: a tie goes to the first. */
static const utf8_charset aCjk[] = {
  UTF8_CS_GB18030, UTF8_CS_SHIFT_JIS, UTF8_CS_BIG5, UTF8_CS_EUC_KR,
};

/* A UTF-8 check fed one byte at a time: bytes still owed by the
** character begun, and the range the next one must fall in. */
typedef struct utf8_stream { int owed; unsigned char lo, hi; } utf8_stream;

/* 1 if byte b may come next in well-formed UTF-8. */
static int stream_byte(utf8_stream *p, unsigned char b){
  if( p->owed ){
    if( b<p->lo || b>p->hi ) return 0;
    p->owed--;
    p->lo = 0x80; p->hi = 0xBF;
    return 1;
  }
  if( b<0x80 ) return 1;
  p->lo = 0x80; p->hi = 0xBF;
  if( b>=0xC2 && b<=0xDF ){ p->owed = 1; return 1; }
  if( b>=0xE0 && b<=0xEF ){
    p->owed = 2;
    if( b==0xE0 ) p->lo = 0xA0;
    if( b==0xED ) p->hi = 0x9F;
    return 1;
  }
  if( b>=0xF0 && b<=0xF4 ){
    p->owed = 3;
    if( b==0xF0 ) p->lo = 0x90;
    if( b==0xF4 ) p->hi = 0x8F;
    return 1;
  }
  return 0;
}

/* The end of the run of ASCII that begins at s[i] (8 bytes at a time). */
static size_t ascii_end(const unsigned char *s, size_t i, size_t n){
  size_t e = i+1;
  for(;;){
    uint64_t w;
    if( e+8>n ) break;
    memcpy(&w, s+e, 8);
    if( w & 0x8080808080808080ull ) break;
    e += 8;
  }
  while( e<n && s[e]<0x80 ) e++;
  return e;
}

/*
** s[0..n) encoded in cs, into out when it is not NULL: its length, or 0
** when cs has no bytes for one of its characters, or the bytes are not
** well-formed UTF-8 with a character of more than one byte, or not
** fewer than n (each character of CJK mojibake stands for two or more
** bytes of UTF-8, in three of its own). Clean text fails within a few
** characters, most often at the first.
*/
static size_t encode_all(const unsigned char *s, size_t n, utf8_charset cs,
                         unsigned char *out){
  utf8_stream st = { 0, 0x80, 0xBF };
  size_t i = 0, k = 0, j;
  int bMulti = 0;
  while( i<n ){
    utf8_unit u;
    unsigned char b[4];
    size_t m;
    if( s[i]<0x80 ){                 /* ASCII is itself in every charset */
      /* the whole run at once: clean text is mostly ASCII, and each of a
      ** dozen charsets' cheap tests walks it */
      size_t e = ascii_end(s, i, n);
      if( st.owed ) return 0;
      if( k+(e-i)>=n ) return 0;     /* k only grows: past n now if ever */
      if( out ) memcpy(out+k, s+i, e-i);
      k += e-i;
      i = e;
      continue;
    }
    u = utf8_decode_unit(s+i, n-i);
    if( u.reason!=UTF8_OK ) return 0;
    /* gb18030's decoder reads a lone 80 as €, which its encoder writes
    ** as A2 E3 and GBK's as 80: UTF-8's continuation byte 80 is what made
    ** a € here */
    if( cs==UTF8_CS_GB18030 && u.codepoint==0x20AC ){ b[0] = 0x80; m = 1; }
    else m = utf8_charset_encode(cs, u.codepoint, b);
    if( m==0 ) return 0;
    for(j=0; j<m; j++){
      if( !stream_byte(&st, b[j]) ) return 0;
      bMulti |= b[j]>=0x80;
      if( out ) out[k+j] = b[j];
    }
    i += u.length;
    k += m;
    if( k>=n ) return 0;
  }
  return st.owed==0 && bMulti ? k : 0;
}

/* A CJK character is U+2E80 to U+9FFF, U+AC00 to U+D7A3, U+F900 to
** U+FF60: what a CJK decoder makes of UTF-8's bytes, mostly. Halfwidth
** katakana (U+FF61 to U+FF9F) are what Shift_JIS makes of Latin, Greek
** and Cyrillic text's UTF-8 ("ﾃｩ" for é), but also real Japanese words,
** some of whose pairs read as UTF-8 ("1ﾛｻﾝｼﾞｪﾙｽ", Los Angeles, as
** "1ۻݼުٽ"): a value whose only CJK characters they are is read with
** HW_MOJI_MARGIN (core/reencode.h).
** 1 if s[0..n) has a CJK character, else 2 if it has a halfwidth
** katakana, else 0. Eight bytes at a time are passed over while none of
** them is E0 or above (its top three bits set): most text that is not
** CJK has no such byte. */
static int has_cjk(const unsigned char *s, size_t n){
  size_t i = 0;
  int hw = 0;
  while( i+2<n ){
    if( i+8<=n ){
      uint64_t w;
      memcpy(&w, s+i, 8);
      if( (w & (w<<1) & (w<<2) & 0x8080808080808080ull)==0 ){ i += 8; continue; }
    }
    if( s[i]>=0xE2 && s[i]<=0xEF ){
      uint32_t cp = (uint32_t)(s[i]&0x0F)<<12 | (uint32_t)(s[i+1]&0x3F)<<6
                  | (s[i+2]&0x3F);
      if( (cp>=0x2E80 && cp<=0x9FFF) || (cp>=0xAC00 && cp<=0xD7A3)
       || (cp>=0xF900 && cp<=0xFF60) ){
        return 1;
      }
      if( cp>=0xFF61 && cp<=0xFF9F ) hw = 2;
    }
    i++;
  }
  return hw;
}

/*
** 0 if well-formed b[0..k) has a character no text holds: a code point
** Unicode has not assigned or a private-use one (the model's classes of
** them, core/model.h), or one of the planes past the third, unassigned
** but for tags; else 1. A misreading undone gives back text; a reading
** that makes such a character is no misreading undone ("ﾗｼﾞｵ", a real
** word, reads as U+05FC U+07B5 under Shift_JIS).
*/
static int is_text(const unsigned char *b, size_t k){
  size_t i = 0;
  while( i<k ){
    utf8_unit u = utf8_decode_unit(b+i, k-i);
    uint32_t cp = u.codepoint;
    unsigned sym = utf8_model_entry(cp) & 0x3FFF;
    if( sym==UTF8_MODEL_SYM_UNASSIGNED || sym==UTF8_MODEL_SYM_PUA
     || (cp>=0x40000 && cp<0xE0000) || cp>=0xF0000 ) return 0;
    i += u.length;
  }
  return 1;
}

/* A mask of the charsets of aCs[0..nCs) that encode s[0..n) as
** encode_all() wants. */
static int possible_of(const unsigned char *s, size_t n,
                       const utf8_charset *aCs, int nCs){
  int j, m = 0;
  for(j=0; j<nCs; j++) if( encode_all(s, n, aCs[j], 0) ) m |= 1<<j;
  return m;
}

/*
** s[0..n) encoded in cs (encode_all()) into scratch[0..k), when those
** bytes decode back to s exactly (so that undoing is exact) and make
** text (is_text()): k; else 0. scratch needs room for 2n + 4 bytes.
*/
static size_t exact_reading(const unsigned char *s, size_t n, utf8_charset cs,
                            unsigned char *scratch){
  size_t k = encode_all(s, n, cs, scratch);
  if( utf8_charset_decode(scratch, k, cs, 0)!=n ) return 0;
  utf8_charset_decode(scratch, k, cs, scratch+k);
  if( memcmp(scratch+k, s, n)!=0 || !is_text(scratch, k) ) return 0;
  return k;
}

/*
** The reading of s[0..n) by the charsets of mask m (of aCs): each one's
** bytes must decode back to the value exactly (so that undoing is
** exact), and the text they make must cost margin less than the value;
** the cheapest of those wins (a tie: the first), but only by margin over
** any that makes other text ("ist Đ˝Đľ" is "ist не" as iso-8859-2 and
** "ist но" as windows-1250: neither is taken). Its charset, the text in
** out[0..*pnOut); or -1.
*/
static int reading_of(const unsigned char *s, size_t n, const utf8_charset *aCs,
                      int nCs, int m, int32_t margin, unsigned char *out,
                      size_t *pnOut, unsigned char *scratch){
  int32_t before = INT32_MIN, best = 0, runner = INT32_MAX;
  int bestCs = -1, j;
  size_t bestLen = 0;
  for(j=0; j<nCs; j++){
    size_t k;
    int32_t after;
    if( (m>>j & 1)==0 ) continue;
    k = exact_reading(s, n, aCs[j], scratch);
    if( k==0 ) continue;
    if( bestCs>=0 && k==bestLen && memcmp(out, scratch, k)==0 ) continue;
    if( before==INT32_MIN ) before = utf8_guess_text_cost(s, n);
    after = utf8_guess_text_cost(scratch, k);
    if( before-after<margin ) continue;
    if( bestCs<0 || after<best ){
      if( bestCs>=0 ) runner = best;
      bestCs = aCs[j];
      best = after;
      bestLen = k;
      memcpy(out, scratch, k);
    }else if( after<runner ){
      runner = after;
    }
  }
  if( bestCs<0 || (runner!=INT32_MAX && runner-best<margin) ) return -1;
  *pnOut = bestLen;
  return bestCs;
}

#define N_CJK (int)(sizeof(aCjk)/sizeof(aCjk[0]))

int utf8_cjk_mojibake_possible(const unsigned char *s, size_t n){
  if( n<4 || n>CJK_MOJI_MAX || !has_cjk(s, n) ) return 0;
  return possible_of(s, n, aCjk, N_CJK);
}

/* How many bytes of a run begin at s[i] (0 if none): a halfwidth
** katakana (U+FF61 to U+FF9F) in halfwidth_unit(), a character outside
** ASCII in high_unit(). */
static size_t halfwidth_unit(const unsigned char *s, size_t i, size_t n){
  return i+2<n && s[i]==0xEF
      && ((s[i+1]==0xBD && s[i+2]>=0xA1) || (s[i+1]==0xBE && s[i+2]<=0x9F)) ? 3 : 0;
}
static size_t high_unit(const unsigned char *s, size_t i, size_t n){
  utf8_unit u;
  if( s[i]<0x80 ) return 0;
  u = utf8_decode_unit(s+i, n-i);
  return u.length;
}
static int is_ascii_letter(unsigned char c){
  return (c|0x20)>='a' && (c|0x20)<='z';
}
/* 1 if s[0..n) has a run of unit(), each of at most nMax of them (any
** number for 0), and an ASCII letter stands right before or right after
** each. */
static int runs_glued(const unsigned char *s, size_t n,
                      size_t (*unit)(const unsigned char*, size_t, size_t),
                      int nMax){
  size_t i = 0, m;
  int nRun = 0;
  while( i<n ){
    size_t a = i;
    int nUnit = 0;
    if( unit(s, i, n)==0 ){ i++; continue; }
    while( i<n && (m = unit(s, i, n))>0 ){ i += m; nUnit++; }
    if( nMax>0 && nUnit>nMax ) return 0;
    if( !(a>0 && is_ascii_letter(s[a-1])) && !(i<n && is_ascii_letter(s[i])) ){
      return 0;
    }
    nRun++;
  }
  return nRun>0;
}
/* Each run of halfwidth katakana glued so: "dﾃ｡rselo", "pﾃ･ det".
** Japanese sets its halfwidth words apart from Latin ones. */
static int halfwidth_glued(const unsigned char *s, size_t n){
  return runs_glued(s, n, halfwidth_unit, 0);
}

int utf8_glued_runs(const unsigned char *s, size_t n){
  return runs_glued(s, n, high_unit, 1);
}

int utf8_cjk_mojibake(const unsigned char *s, size_t n, unsigned char *out,
                      size_t *pnOut, unsigned char *scratch){
  int m = utf8_cjk_mojibake_possible(s, n), margin = CJK_MOJI_MARGIN;
  if( m==0 ) return -1;
  if( has_cjk(s, n)==2 ){
    margin = halfwidth_glued(s, n) ? HW_GLUED_MARGIN : HW_MOJI_MARGIN;
  }
  return reading_of(s, n, aCjk, N_CJK, m, margin, out, pnOut, scratch);
}

/* The single-byte charsets read whole, in order (a tie goes to the
** first): the old engine's five (core/mojibake.h), then windows-1257,
** iso-8859-2 and ibm437. The old engine does not know the last three;
** ibm437 alone is also read where the old engine finds nothing. */
static const utf8_charset aSingle[] = {
  UTF8_CS_WINDOWS_1252, UTF8_CS_LATIN1, UTF8_CS_WINDOWS_1250,
  UTF8_CS_WINDOWS_1251, UTF8_CS_MACINTOSH, UTF8_CS_WINDOWS_1257,
  UTF8_CS_ISO8859_2, UTF8_CS_IBM437,
};
#define N_SINGLE (int)(sizeof(aSingle)/sizeof(aSingle[0]))
static const utf8_charset aCp437[] = { UTF8_CS_IBM437 };

/*
** possible_of() for single-byte charsets aCs[0..nCs) (nCs <= 8), in one
** walk of s for all of them: each writes a byte per character, so they
** count alike, and only the stream of bytes each makes differs. Clean
** text rules out every charset within a character or two (the first
** accented letter is a lead byte followed by ASCII, or no byte at all).
*/
static int sb_possible_of(const unsigned char *s, size_t n,
                          const utf8_charset *aCs, int nCs){
  utf8_stream st[8];
  int live = (1<<nCs)-1, multi = 0, j;
  size_t i = 0, k = 0;
  for(j=0; j<nCs; j++){ st[j].owed = 0; st[j].lo = 0x80; st[j].hi = 0xBF; }
  while( i<n ){
    utf8_unit u;
    if( s[i]<0x80 ){                 /* a run of ASCII, as encode_all() */
      size_t e = ascii_end(s, i, n);
      for(j=0; j<nCs; j++) if( st[j].owed ) live &= ~(1<<j);
      if( live==0 ) return 0;
      if( k+(e-i)>=n ) return 0;
      k += e-i;
      i = e;
      continue;
    }
    u = utf8_decode_unit(s+i, n-i);
    if( u.reason!=UTF8_OK ) return 0;
    for(j=0; j<nCs; j++){
      unsigned char b[4];
      if( (live>>j & 1)==0 ) continue;
      if( utf8_charset_encode(aCs[j], u.codepoint, b)==0 || !stream_byte(&st[j], b[0]) ){
        live &= ~(1<<j);
      }else if( b[0]>=0x80 ){
        multi |= 1<<j;
      }
    }
    if( live==0 ) return 0;
    i += u.length;
    if( ++k>=n ) return 0;
  }
  for(j=0; j<nCs; j++) if( st[j].owed ) live &= ~(1<<j);
  return live & multi;
}

/*
** 1 if a single-byte charset's reading of s[0..n) is worth a look: a
** value of a readable length where a byte >= 0x80 stands right before a
** lead byte (C0 and above): two characters outside ASCII side by side.
** Such a charset writes each character outside ASCII as one byte >= 0x80,
** so a reading that makes well-formed UTF-8 of more than ASCII has a lead
** byte and, right after it, a continuation byte from the next character;
** prose whose accented letters stand between ASCII ones has none and is
** passed here, 8 bytes at a time.
*/
static int sb_worth(const unsigned char *s, size_t n){
  size_t i;
  if( n<2 || n>CJK_MOJI_MAX ) return 0;
  for(i=0; i+9<=n; i+=8){
    uint64_t x, y;
    memcpy(&x, s+i, 8);
    memcpy(&y, s+i+1, 8);
    /* bit 7 of each byte: x's set, and y's bits 7 and 6 */
    if( x & y & (y<<1) & 0x8080808080808080ull ) return 1;
  }
  for(; i+1<n; i++) if( s[i]>=0x80 && s[i+1]>=0xC0 ) return 1;
  return 0;
}
/* sb_worth() as it was, a byte >= 0x80 anywhere: the plain reference
** (utf8_sb_mojibake_possible_plain) keeps it, so that the tests hold the
** test above to the walk itself. */
static int sb_worth_plain(const unsigned char *s, size_t n){
  size_t i;
  if( n<2 || n>CJK_MOJI_MAX ) return 0;
  for(i=0; i<n && s[i]<0x80; i++){}
  return i<n;
}

/* The cheap test of the readings of aCs[0..nCs), all single-byte. */
static int sb_possible(const unsigned char *s, size_t n,
                       const utf8_charset *aCs, int nCs){
  return sb_worth(s, n) ? sb_possible_of(s, n, aCs, nCs) : 0;
}

int utf8_sb_mojibake_possible(const unsigned char *s, size_t n){
  return sb_possible(s, n, aSingle, N_SINGLE);
}
int utf8_sb_mojibake_possible_plain(const unsigned char *s, size_t n){
  return sb_worth_plain(s, n) ? possible_of(s, n, aSingle, N_SINGLE) : 0;
}

int utf8_sb_mojibake(const unsigned char *s, size_t n, unsigned char *out,
                     size_t *pnOut, unsigned char *scratch){
  int m = utf8_sb_mojibake_possible(s, n);
  if( m==0 ) return -1;
  return reading_of(s, n, aSingle, N_SINGLE, m, SB_MOJI_MARGIN, out, pnOut, scratch);
}

int utf8_sb_mojibake_as(const unsigned char *s, size_t n, utf8_charset cs,
                        unsigned char *out, size_t *pnOut, unsigned char *scratch){
  /* reading_of() encodes it in cs, and finds nothing where that fails */
  if( n<2 || n>CJK_MOJI_MAX ) return -1;
  return reading_of(s, n, &cs, 1, 1, SB_MOJI_MARGIN, out, pnOut, scratch);
}

size_t utf8_sb_read_exact(const unsigned char *s, size_t n, utf8_charset cs,
                          unsigned char *scratch){
  return n>0 && n<=CJK_MOJI_MAX ? exact_reading(s, n, cs, scratch) : 0;
}

/* The case of cp to the model: 0 none, 1 small, 2 capital. */
static unsigned case_of(uint32_t cp){
  return utf8_model_entry(cp)>>14;
}

/* The case of the character of well-formed a[0..n) at a[i], and of the
** one before it (0 at the start). */
static unsigned case_at(const unsigned char *a, size_t n, size_t i){
  return case_of(utf8_decode_unit(a+i, n-i).codepoint);
}
static unsigned case_before(const unsigned char *a, size_t n, size_t i){
  if( i==0 ) return 0;
  for(i--; i>0 && (a[i]&0xC0)==0x80; i--){}
  return case_at(a, n, i);
}

/* 1 if the letter of case k at a[i..i+len) is out of step with the
** letters beside it: a capital after a small letter ("PasswÜrter") or
** between a capital and a small one ("KÜrper"), a small letter between
** capitals ("HöVELYEZ"). */
static int case_odd(const unsigned char *a, size_t n, size_t i, size_t len,
                    unsigned k){
  unsigned before = case_before(a, n, i);
  unsigned after = i+len<n ? case_at(a, n, i+len) : 0;
  if( k==2 ) return before==1 || (before==2 && after==1);
  if( k==1 ) return before==2 && after==2;
  return 0;
}

int utf8_sb_case_apart(const unsigned char *a, size_t na,
                       const unsigned char *b, size_t nb){
  size_t i = 0, j = 0;
  int bFlip = 0, bOddA = 0, bOddB = 0;
  while( i<na && j<nb ){
    utf8_unit u = utf8_decode_unit(a+i, na-i), v = utf8_decode_unit(b+j, nb-j);
    if( u.reason!=UTF8_OK || v.reason!=UTF8_OK ) return 0;
    if( u.codepoint!=v.codepoint ){
      unsigned kx = case_of(u.codepoint), ky = case_of(v.codepoint);
      if( kx==0 || ky==0 ) return 0;           /* not two letters: apart */
      if( kx!=ky ) bFlip = 1;
      bOddA |= case_odd(a, na, i, u.length, kx);
      bOddB |= case_odd(b, nb, j, v.length, ky);
    }
    i += u.length;
    j += v.length;
  }
  if( !bFlip || bOddA==bOddB ) return 0;
  return bOddB ? 1 : -1;
}

int utf8_sb_mojibake_only(const unsigned char *s, size_t n,
                          const unsigned char *t, size_t nt,
                          unsigned char *scratch){
  int m = utf8_sb_mojibake_possible(s, n), j;
  for(j=0; j<N_SINGLE; j++){
    size_t k;
    if( (m>>j & 1)==0 ) continue;
    k = exact_reading(s, n, aSingle[j], scratch);
    if( k && (k!=nt || memcmp(scratch, t, nt)!=0) ) return 0;   /* other text */
  }
  return 1;
}

int utf8_cp437_mojibake_possible(const unsigned char *s, size_t n){
  return sb_possible(s, n, aCp437, 1);
}

int utf8_cp437_mojibake(const unsigned char *s, size_t n, unsigned char *out,
                        size_t *pnOut, unsigned char *scratch){
  int m = utf8_cp437_mojibake_possible(s, n);
  if( m==0 ) return -1;
  return reading_of(s, n, aCp437, 1, m, SB_MOJI_MARGIN, out, pnOut, scratch);
}

/* The UTF-8 of c's bytes read as single-byte cs (c's misreading) into
** out (12 bytes at most); 0 if cs has no character for one of them. */
static size_t misread_char(const unsigned char *c, size_t nc, utf8_charset cs,
                           unsigned char *out){
  size_t k, m = 0;
  for(k=0; k<nc; k++){
    uint32_t cp = c[k]<0x80 ? c[k] : utf8_cs_single[cs][c[k]-0x80];
    if( cp==0xFFFD ) return 0;
    m += utf8_encode_scalar(cp, out+m);
  }
  return m;
}

/* What sb_align() found: o is w with characters left misread (ALIGNED),
** one not ASCII kept (KEPT), one left misread (LEFT), one of two bytes
** left misread (SHORT_LEFT), a run left that holds an NBSP (NBSP), a
** word (between spaces or NBSPs) with one kept and one left (MIXED),
** the kept one a character cs has no byte for (FOREIGN, and then
** MIXED_FOREIGN), one left misread as letters that each have a case
** (LEFT_CASED), one left that is neither the first character of w nor
** its last (LEFT_INSIDE), one left of three bytes or more (LONG_LEFT),
** a run left right after a capital letter (LEFT_AFTER_CAPITAL). */
#define ALIGN_ALIGNED         1
#define ALIGN_KEPT            2
#define ALIGN_LEFT            4
#define ALIGN_NBSP            8
#define ALIGN_MIXED          16
#define ALIGN_FOREIGN        32
#define ALIGN_MIXED_FOREIGN  64
#define ALIGN_SHORT_LEFT    128
#define ALIGN_LEFT_READABLE 256
#define ALIGN_LEFT_CASED    512
#define ALIGN_LONG_LEFT    1024
#define ALIGN_LEFT_INSIDE  2048
#define ALIGN_LEFT_AFTER_CAPITAL 4096

/* 1 if UTF-8 a[0..n) has a character cs has no byte for. */
static int has_foreign(const unsigned char *a, size_t n, utf8_charset cs){
  size_t i = 0;
  while( i<n ){
    utf8_unit u = utf8_decode_unit(a+i, n-i);
    unsigned char b[4];
    if( u.reason!=UTF8_OK || utf8_charset_encode(cs, u.codepoint, b)==0 ) return 1;
    i += u.length;
  }
  return 0;
}

/* 1 if UTF-8 a[0..n) is letters that each have a case ("ĎŠ"). */
static int all_cased(const unsigned char *a, size_t n){
  size_t i = 0;
  while( i<n ){
    utf8_unit u = utf8_decode_unit(a+i, n-i);
    if( u.reason!=UTF8_OK || case_of(u.codepoint)==0 ) return 0;
    i += u.length;
  }
  return 1;
}

/* How o[0..no) is w[0..nw) with some characters left misread as cs: an
** ALIGN_ mask, 0 when it is not. */
static int sb_align(const unsigned char *o, size_t no,
                    const unsigned char *w, size_t nw, utf8_charset cs,
                    int csOther){
  size_t i = 0, j = 0, k;
  int mask = 0, word = 0, bLeft = 0, bPrevLeft;
  while( i<nw ){
    utf8_unit u = utf8_decode_unit(w+i, nw-i);
    unsigned char aMis[12];
    size_t m;
    int bSpace = 0;
    if( u.reason!=UTF8_OK ) return 0;
    bPrevLeft = bLeft;
    bLeft = 0;
    if( w[i]==' ' || w[i]=='\t' || w[i]=='\n' || w[i]=='\r'
     || (w[i]==0xC2 && u.length==2 && w[i+1]==0xA0) ){
      bSpace = 1;                                /* a space or an NBSP */
      word = 0;
    }
    if( no-j>=u.length && memcmp(o+j, w+i, u.length)==0 ){
      if( w[i]>=0x80 && !bSpace ){
        unsigned char aOne[4];
        word |= ALIGN_KEPT;
        if( utf8_charset_encode(cs, u.codepoint, aOne)==0 ) word |= ALIGN_FOREIGN;
      }
      j += u.length;
    }else{
      m = misread_char(w+i, u.length, cs, aMis);
      if( m==0 || no-j<m || memcmp(o+j, aMis, m)!=0 ) return 0;
      for(k=0; k+1<m; k++){
        if( aMis[k]==0xC2 && aMis[k+1]==0xA0 ) mask |= ALIGN_NBSP;
      }
      word |= ALIGN_LEFT;
      mask |= u.length<3 ? ALIGN_SHORT_LEFT : ALIGN_LONG_LEFT;
      if( all_cased(aMis, m) ) mask |= ALIGN_LEFT_CASED;
      if( i>0 && i+u.length<nw ) mask |= ALIGN_LEFT_INSIDE;
      if( !bPrevLeft && case_before(w, nw, i)==2 ) mask |= ALIGN_LEFT_AFTER_CAPITAL;
      bLeft = 1;
      if( csOther>=0 && !has_foreign(aMis, m, (utf8_charset)csOther) ){
        mask |= ALIGN_LEFT_READABLE;
      }
      j += m;
    }
    mask |= word;
    if( (word & (ALIGN_KEPT|ALIGN_LEFT))==(ALIGN_KEPT|ALIGN_LEFT) ) mask |= ALIGN_MIXED;
    if( (word & (ALIGN_FOREIGN|ALIGN_LEFT))==(ALIGN_FOREIGN|ALIGN_LEFT) ){
      mask |= ALIGN_MIXED_FOREIGN;
    }
    i += u.length;
  }
  return j==no ? mask | ALIGN_ALIGNED : 0;
}

int utf8_sb_between(const unsigned char *o, size_t no,
                    const unsigned char *w, size_t nw, utf8_charset cs){
  int mask = sb_align(o, no, w, nw, cs, -1);
  return (mask & (ALIGN_ALIGNED|ALIGN_KEPT|ALIGN_LEFT|ALIGN_NBSP))
         == (ALIGN_ALIGNED|ALIGN_KEPT|ALIGN_LEFT);
}

int utf8_sb_between_long(const unsigned char *o, size_t no,
                         const unsigned char *w, size_t nw, utf8_charset cs){
  int mask = sb_align(o, no, w, nw, cs, -1);
  return (mask & (ALIGN_ALIGNED|ALIGN_KEPT|ALIGN_LEFT|ALIGN_NBSP|ALIGN_SHORT_LEFT))
         == (ALIGN_ALIGNED|ALIGN_KEPT|ALIGN_LEFT);
}

int utf8_sb_between_edge(const unsigned char *o, size_t no,
                         const unsigned char *w, size_t nw, utf8_charset cs){
  int mask = sb_align(o, no, w, nw, cs, -1);
  return (mask & (ALIGN_ALIGNED|ALIGN_KEPT|ALIGN_LEFT|ALIGN_NBSP|ALIGN_LEFT_CASED
                  |ALIGN_LEFT_INSIDE)) == (ALIGN_ALIGNED|ALIGN_KEPT|ALIGN_LEFT);
}

int utf8_sb_misread_uncased(const unsigned char *z, size_t n,
                            const unsigned char *w, size_t nw, utf8_charset cs){
  int mask = sb_align(z, n, w, nw, cs, -1);
  return (mask & (ALIGN_ALIGNED|ALIGN_KEPT|ALIGN_LEFT|ALIGN_NBSP|ALIGN_LEFT_CASED
                  |ALIGN_LONG_LEFT|ALIGN_LEFT_AFTER_CAPITAL)) == (ALIGN_ALIGNED|ALIGN_LEFT);
}

int utf8_sb_between_other(const unsigned char *o, size_t no,
                          const unsigned char *w, size_t nw, utf8_charset cs,
                          utf8_charset csOld){
  int mask = sb_align(o, no, w, nw, cs, (int)csOld);
  return (mask & (ALIGN_ALIGNED|ALIGN_KEPT|ALIGN_LEFT|ALIGN_NBSP|ALIGN_LEFT_READABLE))
         == (ALIGN_ALIGNED|ALIGN_KEPT|ALIGN_LEFT);
}

int utf8_sb_mixed_word(const unsigned char *z, size_t n,
                       const unsigned char *t, size_t nt, utf8_charset cs){
  int mask = sb_align(z, n, t, nt, cs, -1);
  if( (mask & (ALIGN_ALIGNED|ALIGN_MIXED))!=(ALIGN_ALIGNED|ALIGN_MIXED) ) return 0;
  return mask & ALIGN_MIXED_FOREIGN ? 2 : 1;
}
