/*
** core/charsets_encode.c - the legacy charsets' encoders (core/charsets.h:
** utf8_charset_encode, utf8_charset_byteclass): each the inverse of its
** decoder in core/charsets.c, over the reverse tables that
** tools/gen-charsets.py writes into core/charsets_tables.c.
*/
#include "charsets.h"

#include <string.h>

#define NONE 0xFFFFFFFFu

/* The row of the single-byte tables for cp >= 0x80 (0: in no charset). */
static unsigned sb_row(uint32_t cp){
  if( cp>=0x10000 ) return 0;
  return utf8_cs_sb_pages[utf8_cs_sb_stage1[cp>>7]][cp&127];
}

void utf8_charset_byteclass(uint32_t cp, uint32_t mask[5]){
  if( cp<0x80 ){
    mask[0] = UTF8_CS_SINGLE_MASK;
    mask[1] = mask[2] = mask[3] = mask[4] = 0;
    return;
  }
  memcpy(mask, utf8_cs_sb_classes[utf8_cs_sb_row_class[sb_row(cp)]],
         5*sizeof(uint32_t));
}

/* One reverse table: pointers sorted by code point, where each cp>>8
** begins, and the forward table that gives a pointer's code point. */
typedef struct rev_table {
  const uint16_t *rev, *start;
  const uint32_t *blocks;
  const uint16_t *fwd;
  const uint32_t *first;
  const uint8_t *plane2;          /* Big5: bit set, the code point is U+2xxxx */
} rev_table;

static const rev_table rev_jis0208 = { utf8_cs_jis0208_rev, utf8_cs_jis0208_rev_start,
  &utf8_cs_jis0208_rev_blocks, utf8_cs_jis0208, &utf8_cs_jis0208_first, 0 };
static const rev_table rev_jis0212 = { utf8_cs_jis0212_rev, utf8_cs_jis0212_rev_start,
  &utf8_cs_jis0212_rev_blocks, utf8_cs_jis0212, &utf8_cs_jis0212_first, 0 };
static const rev_table rev_gb18030 = { utf8_cs_gb18030_rev, utf8_cs_gb18030_rev_start,
  &utf8_cs_gb18030_rev_blocks, utf8_cs_gb18030, &utf8_cs_gb18030_first, 0 };
static const rev_table rev_euckr = { utf8_cs_euckr_rev, utf8_cs_euckr_rev_start,
  &utf8_cs_euckr_rev_blocks, utf8_cs_euckr, &utf8_cs_euckr_first, 0 };
static const rev_table rev_big5 = { utf8_cs_big5_rev, utf8_cs_big5_rev_start,
  &utf8_cs_big5_rev_blocks, utf8_cs_big5, &utf8_cs_big5_first, utf8_cs_big5_plane2 };

/* The pointer the table holds for cp, or NONE. */
static uint32_t rev_find(const rev_table *t, uint32_t cp){
  uint32_t blk = cp>>8, lo, hi;
  if( blk>=*t->blocks ) return NONE;
  lo = t->start[blk];
  hi = t->start[blk+1];
  while( lo<hi ){
    uint32_t mid = lo + (hi-lo)/2, p = t->rev[mid], k = p - *t->first;
    uint32_t c = t->fwd[k];
    if( t->plane2 && (t->plane2[k>>3] & (1u<<(k&7))) ) c += 0x20000;
    if( c==cp ) return p;
    if( c<cp ) lo = mid+1; else hi = mid;
  }
  return NONE;
}

static size_t put2(unsigned char *out, unsigned a, unsigned b){
  out[0] = (unsigned char)a;
  out[1] = (unsigned char)b;
  return 2;
}

/* gb18030's four bytes: the inverse of index gb18030 ranges, as
** core/charsets.c's gb_ranges() reads it. */
static size_t gb_four(uint32_t cp, unsigned char *out){
  uint32_t lo = 0, hi = utf8_cs_gb_ranges_count, p;
  if( cp==0xE7C7 ){
    p = 7457;
  }else{
    if( cp<utf8_cs_gb_ranges_cp[0] ) return 0;
    while( hi-lo>1 ){               /* the last row whose code point is <= cp */
      uint32_t mid = (lo+hi)/2;
      if( utf8_cs_gb_ranges_cp[mid]<=cp ) lo = mid; else hi = mid;
    }
    p = utf8_cs_gb_ranges_ptr[lo] + (cp - utf8_cs_gb_ranges_cp[lo]);
    /* past the row's pointers: cp is in the two-byte index (or nowhere) */
    if( lo+1<utf8_cs_gb_ranges_count && p>=utf8_cs_gb_ranges_ptr[lo+1] ) return 0;
    if( p==7457 || (p>39419 && p<189000) || p>1237575 ) return 0;
  }
  out[3] = (unsigned char)(0x30 + p%10);  p /= 10;
  out[2] = (unsigned char)(0x81 + p%126); p /= 126;
  out[1] = (unsigned char)(0x30 + p%10);  p /= 10;
  out[0] = (unsigned char)(0x81 + p);
  return 4;
}

static size_t enc_gb(uint32_t cp, unsigned char *out, int gbk){
  uint32_t p;
  if( gbk && cp==0x20AC ){ out[0] = 0x80; return 1; }
  p = rev_find(&rev_gb18030, cp);
  if( p!=NONE ){
    unsigned t = p%190;
    return put2(out, 0x81 + p/190, t + (t<0x3F ? 0x40 : 0x41));
  }
  return gbk ? 0 : gb_four(cp, out);
}

static size_t enc_big5(uint32_t cp, unsigned char *out){
  uint32_t p = rev_find(&rev_big5, cp);
  unsigned t;
  if( p==NONE ) return 0;
  t = p%157;
  return put2(out, 0x81 + p/157, t + (t<0x3F ? 0x40 : 0x62));
}

static size_t enc_shift_jis(uint32_t cp, unsigned char *out){
  uint32_t p;
  unsigned t, l;
  if( cp==0x80 ){ out[0] = 0x80; return 1; }
  if( cp>=0xFF61 && cp<=0xFF9F ){ out[0] = (unsigned char)(cp - 0xFF61 + 0xA1); return 1; }
  if( cp>=0xE000 && cp<=0xE757 ){
    p = cp - 0xE000 + 8836;                       /* user-defined: F0 40..F9 FC */
  }else{
    p = rev_find(&rev_jis0208, cp);
    if( p==NONE ) return 0;
    if( p>=8272 && p<=8835 && utf8_cs_jis0208_sjis[p-8272] ) p = utf8_cs_jis0208_sjis[p-8272];
  }
  l = p/188;
  t = p%188;
  return put2(out, l + (l<0x1F ? 0x81 : 0xC1), t + (t<0x3F ? 0x40 : 0x41));
}

static size_t enc_euc_jp(uint32_t cp, unsigned char *out){
  uint32_t p;
  if( cp>=0xFF61 && cp<=0xFF9F ) return put2(out, 0x8E, cp - 0xFF61 + 0xA1);
  p = rev_find(&rev_jis0208, cp);
  if( p!=NONE ) return put2(out, 0xA1 + p/94, 0xA1 + p%94);
  p = rev_find(&rev_jis0212, cp);
  if( p==NONE ) return 0;
  out[0] = 0x8F;
  return 1 + put2(out+1, 0xA1 + p/94, 0xA1 + p%94);
}

static size_t enc_euc_kr(uint32_t cp, unsigned char *out){
  uint32_t p = rev_find(&rev_euckr, cp);
  if( p==NONE ) return 0;
  return put2(out, 0x81 + p/190, 0x41 + p%190);
}

size_t utf8_charset_encode(utf8_charset cs, uint32_t cp, unsigned char out[4]){
  if( (unsigned)cs>=UTF8_CS_COUNT ) return 0;
  if( cp<0x80 ){ out[0] = (unsigned char)cp; return 1; }
  if( cs<UTF8_CS_FIRST_MULTI ){
    unsigned b = utf8_cs_sb_rows[sb_row(cp)][cs];
    out[0] = (unsigned char)b;      /* 0 when none: no branch to mispredict */
    return b!=0;
  }
  if( cp>=0xD800 && (cp<0xE000 || cp>0x10FFFF) ) return 0;
  switch( cs ){
    case UTF8_CS_GBK:       return enc_gb(cp, out, 1);
    case UTF8_CS_GB18030:   return enc_gb(cp, out, 0);
    case UTF8_CS_BIG5:      return enc_big5(cp, out);
    case UTF8_CS_SHIFT_JIS: return enc_shift_jis(cp, out);
    case UTF8_CS_EUC_JP:    return enc_euc_jp(cp, out);
    default:                return enc_euc_kr(cp, out);
  }
}
