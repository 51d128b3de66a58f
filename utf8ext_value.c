/*
** utf8ext_value.c - the helpers every glue unit shares: reading a value's
** bytes, the stored form of text, SQL literals and hex for people to read,
** names escaped for error messages, and the names of the encodings.
** See utf8ext_glue.h for what each one promises.
*/
#include "utf8ext_glue.h"
#include "mojibake.h"
#include "charsets.h"
#include "reencode.h"
#include "c1moji.h"
#include "cesumoji.h"
#include "lossymoji.h"
#include "guess.h"

#include <float.h>
#include <stdio.h>
#include <stdarg.h>
#include <string.h>

/*
** sqlite3_value_blob() returns NULL for an empty BLOB, so an empty value
** gets a pointer to "" instead.
*/
int utf8ext_value_bytes(sqlite3_value *v, const unsigned char **pz,
                        sqlite3_int64 *pn){
  const unsigned char *z;
  switch( sqlite3_value_type(v) ){
    case SQLITE_NULL:
      return 0;
    case SQLITE_BLOB:
      z = (const unsigned char*)sqlite3_value_blob(v);
      break;
    default:
      z = sqlite3_value_text(v);
      break;
  }
  *pn = sqlite3_value_bytes(v);
  if( z==0 ){
    if( *pn>0 ) return -1;
    z = (const unsigned char*)"";
  }
  *pz = z;
  return 1;
}

int utf8ext_stored_text(sqlite3_value *v, int eTextEnc,
                        const unsigned char **pz, sqlite3_int64 *pn){
  const unsigned char *z;
  if( eTextEnc==SQLITE_UTF16LE ){
    z = sqlite3_value_text16le(v);
    *pn = sqlite3_value_bytes16(v);
  }else if( eTextEnc==SQLITE_UTF16BE ){
    z = sqlite3_value_text16be(v);
    *pn = sqlite3_value_bytes16(v);
  }else{
    z = sqlite3_value_text(v);
    *pn = sqlite3_value_bytes(v);
  }
  *pz = z;
  return z!=0;
}

int utf8ext_utf16_well_formed(const unsigned char *z, sqlite3_int64 n,
                              int eTextEnc){
  sqlite3_int64 i;
  int hi = eTextEnc==SQLITE_UTF16BE ? 0 : 1;   /* index of the high byte */
  if( n%2!=0 ) return 0;
  for(i=0; i+1<n; i+=2){
    unsigned u = z[i+hi];
    if( u<0xD8 || u>0xDF ) continue;            /* not a surrogate */
    if( u>=0xDC || i+3>=n ) return 0;           /* lone low half, or last */
    u = z[i+2+hi];
    if( u<0xDC || u>0xDF ) return 0;            /* high half, no low one */
    i += 2;
  }
  return 1;
}

/* Make *paBuf (*pnBuf bytes) hold at least n bytes; 0, or SQLITE_NOMEM. */
static int buf_reserve(unsigned char **paBuf, sqlite3_int64 *pnBuf,
                       sqlite3_int64 n){
  unsigned char *aNew;
  if( *pnBuf>=n ) return SQLITE_OK;
  aNew = sqlite3_realloc64(*paBuf, (sqlite3_uint64)n);
  if( aNew==0 ) return SQLITE_NOMEM;
  *paBuf = aNew;
  *pnBuf = n;
  return SQLITE_OK;
}

/*
** True if UTF-8 z[0..n) is a result that a second utf8_unmojibake leaves
** alone: neither wide text again nor mojibake.
*/
static int moji_settled(const unsigned char *z, size_t n, int *pNomem){
  utf8_moji_charset chain[UTF8_MOJI_MAX_DEPTH];
  unsigned char *aTmp;
  size_t len = 0;
  int depth;
  *pNomem = 0;
  if( utf8_moji_wide(z, n, 0, &len)!=UTF8_MOJI_COUNT ) return 0;
  if( !utf8_moji_possible(z, n) ) return 1;
  aTmp = sqlite3_malloc64((sqlite3_uint64)n + 1);
  if( aTmp==0 ){ *pNomem = 1; return 0; }
  depth = utf8_unmojibake(z, n, aTmp, &len, chain);
  sqlite3_free(aTmp);
  return depth==0;
}

/*
** The whole readings beside the old engine (core/reencode.c, c1moji.c,
** cesumoji.c, lossymoji.c), each behind one signature: the cheap test,
** then the reading of z[0..n) into out with scratch; the name of the
** misreading, or UTF8_MOJI_COUNT for none.
*/
static utf8_moji_charset read_cesu(const unsigned char *z, size_t n,
                                   unsigned char *out, size_t *pLen,
                                   unsigned char *scratch){
  return utf8_cesu_mojibake(z, n, out, pLen, scratch)
         ? UTF8_MOJI_CESU8_AS_CP1252 : UTF8_MOJI_COUNT;
}
static utf8_moji_charset read_lossy(const unsigned char *z, size_t n,
                                    unsigned char *out, size_t *pLen,
                                    unsigned char *scratch){
  return utf8_lossy_mojibake(z, n, out, pLen, scratch)
         ? UTF8_MOJI_CP1252_LOSSY : UTF8_MOJI_COUNT;
}
/* The misreadings' names of the charsets core/reencode.c reads whole
** (the old engine's five among them), both ways: moji_of(), moji_charset(). */
static const struct { utf8_moji_charset moji; utf8_charset cs; } aMojiCs[] = {
  { UTF8_MOJI_CP1252, UTF8_CS_WINDOWS_1252 }, { UTF8_MOJI_LATIN1, UTF8_CS_LATIN1 },
  { UTF8_MOJI_CP1251, UTF8_CS_WINDOWS_1251 }, { UTF8_MOJI_CP1250, UTF8_CS_WINDOWS_1250 },
  { UTF8_MOJI_MACROMAN, UTF8_CS_MACINTOSH },  { UTF8_MOJI_CP1257, UTF8_CS_WINDOWS_1257 },
  { UTF8_MOJI_ISO8859_2, UTF8_CS_ISO8859_2 }, { UTF8_MOJI_CP437, UTF8_CS_IBM437 },
  { UTF8_MOJI_GB18030, UTF8_CS_GB18030 },     { UTF8_MOJI_SHIFT_JIS, UTF8_CS_SHIFT_JIS },
  { UTF8_MOJI_BIG5, UTF8_CS_BIG5 },           { UTF8_MOJI_EUC_KR, UTF8_CS_EUC_KR },
};

/* The misreading's name of the charset a whole reading returns, or
** UTF8_MOJI_COUNT for none (-1). */
static utf8_moji_charset moji_of(int cs){
  size_t i;
  for(i=0; i<sizeof(aMojiCs)/sizeof(aMojiCs[0]); i++){
    if( (int)aMojiCs[i].cs==cs ) return aMojiCs[i].moji;
  }
  return UTF8_MOJI_COUNT;
}

/* The charset of misreading cs (one of the old engine's five). */
static utf8_charset moji_charset(utf8_moji_charset cs){
  size_t i;
  for(i=0; i<sizeof(aMojiCs)/sizeof(aMojiCs[0]); i++){
    if( aMojiCs[i].moji==cs ) return aMojiCs[i].cs;
  }
  return UTF8_CS_MACINTOSH;
}
/* 1 if the model prices the reading out[0..len) margin below z[0..n). */
static int reads_cheaper(const unsigned char *z, size_t n,
                         const unsigned char *out, size_t len, int32_t margin){
  return utf8_guess_text_cost(z, n) - utf8_guess_text_cost(out, len)>=margin;
}

/* A value of CJK_SHORT_BYTES or more; under MOJI_MIN_BYTES, at the
** margin CJK_SHORT_MARGIN, or CJK_GLUED_MARGIN where each run of it
** outside ASCII touches an ASCII letter (core/reencode.h). */
static utf8_moji_charset read_cjk(const unsigned char *z, size_t n,
                                  unsigned char *out, size_t *pLen,
                                  unsigned char *scratch){
  utf8_moji_charset cs = moji_of(utf8_cjk_mojibake(z, n, out, pLen, scratch));
  if( cs!=UTF8_MOJI_COUNT && n<MOJI_MIN_BYTES
   && !reads_cheaper(z, n, out, *pLen, utf8_glued_runs(z, n) ? CJK_GLUED_MARGIN
                                                              : CJK_SHORT_MARGIN) ){
    return UTF8_MOJI_COUNT;
  }
  return cs;
}
static utf8_moji_charset read_sb(const unsigned char *z, size_t n,
                                 unsigned char *out, size_t *pLen,
                                 unsigned char *scratch){
  return moji_of(utf8_sb_mojibake(z, n, out, pLen, scratch));
}
static utf8_moji_charset read_cp437(const unsigned char *z, size_t n,
                                    unsigned char *out, size_t *pLen,
                                    unsigned char *scratch){
  return moji_of(utf8_cp437_mojibake(z, n, out, pLen, scratch));
}
/* 1 if UTF-8 z[0..n) has a C1 control (U+0080..U+009F, C2 80..C2 9F). */
static int has_c1(const unsigned char *z, size_t n){
  const unsigned char *p = z, *e = z + n;
  while( (p = memchr(p, 0xC2, (size_t)(e-p)))!=0 && p+1<e ){
    if( p[1]>=0x80 && p[1]<=0x9F ) return 1;
    p++;
  }
  return 0;
}

/* 1 if UTF-8 z[0..n) has an NBSP (C2 A0). */
static int has_nbsp(const unsigned char *z, size_t n){
  size_t i;
  for(i=0; i+1<n; i++) if( z[i]==0xC2 && z[i+1]==0xA0 ) return 1;
  return 0;
}

/* The whole reading asked where nothing else read the value: the reading
** of all eight single-byte charsets, on a value of MOJI_MIN_BYTES or
** more, taken when its text costs SB_ALONE_MARGIN less than the value
** (core/reencode.h; SB_ALONE_MARGIN_UNKNOWN, or SB_ALONE_MARGIN_UNCASED
** where each character it reads back is of two bytes and none was
** misread as cased letters, for those two on a value with no NBSP) and
** windows-1257 or iso-8859-2 (which the old engine does not know),
** latin1 (text whose C1 controls windows-1252 cannot encode) or
** macintosh (Arabic, Thai, Hebrew read as MacRoman, which the old engine
** leaves) won, or the value holds a C1 control and its
** reading none (a C1 control is no text). Other values that
** windows-1250, -1251 or -1252 read alike are the old engine's to judge:
** taken alone, windows-1250's reading changed 4 of test/mojibake.test's
** values the old engine's rules keep ("1707,43 KÄŤ"), windows-1252's 12,
** windows-1251's 47 ("ГІД" NBSP glued to misread Russian). A value
** that holds a C1 control whose reading holds none is misread for sure:
** its reading is taken at any length and at reading_of()'s own margin
** (Arabic misread as windows-1250, "je z Ů" U+0083 "ŘŞ", 13 bytes,
** reads as "je z كت" 35.75 bits cheaper, short of SB_ALONE_MARGIN).
** What it reads back is read again by the same charset alone, at any
** length and at the reading's own margin (bSame: text misread twice as
** ISO-8859-2, whose first reading back, sure for its C1 controls, is
** "proveĂŻda", which the old engine would read as cp1250). */
static utf8_moji_charset read_sb_unknown(const unsigned char *z, size_t n,
                                         unsigned char *out, size_t *pLen,
                                         unsigned char *scratch){
  utf8_moji_charset cs;
  int bC1 = has_c1(z, n);
  int32_t margin;
  if( n<MOJI_MIN_BYTES && !bC1 ) return UTF8_MOJI_COUNT;
  cs = read_sb(z, n, out, pLen, scratch);
  if( cs==UTF8_MOJI_COUNT ) return UTF8_MOJI_COUNT;
  if( bC1 && !has_c1(out, *pLen) ) return cs;
  if( n<MOJI_MIN_BYTES ) return UTF8_MOJI_COUNT;
  margin = SB_ALONE_MARGIN;
  if( (cs==UTF8_MOJI_CP1257 || cs==UTF8_MOJI_ISO8859_2) && !has_nbsp(z, n) ){
    margin = utf8_sb_misread_uncased(z, n, out, *pLen, moji_charset(cs))
             ? SB_ALONE_MARGIN_UNCASED : SB_ALONE_MARGIN_UNKNOWN;
  }
  if( !reads_cheaper(z, n, out, *pLen, margin) ) return UTF8_MOJI_COUNT;
  if( cs==UTF8_MOJI_CP1257 || cs==UTF8_MOJI_ISO8859_2 || cs==UTF8_MOJI_LATIN1
   || cs==UTF8_MOJI_MACROMAN ){
    return cs;
  }
  return has_c1(z, n) && !has_c1(out, *pLen) ? cs : UTF8_MOJI_COUNT;
}
static utf8_moji_charset read_c1(const unsigned char *z, size_t n,
                                 unsigned char *out, size_t *pLen,
                                 unsigned char *scratch){
  (void)scratch;
  return utf8_c1_mojibake(z, n, out, pLen) ? UTF8_MOJI_CP1252_AS_LATIN1
                                           : UTF8_MOJI_COUNT;
}
static int possible_c1(const unsigned char *z, size_t n){
  return n<=C1_MOJI_MAX && memchr(z, 0xC2, n)!=0;  /* a C1 control: C2 80-9F */
}

typedef struct whole_reading {
  int (*xPossible)(const unsigned char*, size_t);
  utf8_moji_charset (*xRead)(const unsigned char*, size_t, unsigned char*,
                             size_t*, unsigned char*);
  int nOut, nScratch;     /* out and scratch need n times these, plus 4 */
  sqlite3_int64 nMin;     /* a stored value shorter is not read */
  int bSame;              /* read again, the same charset alone at its margin
                          ** (2: only a value with a C1 control) */
} whole_reading;

/* Before the old engine, which would undo the rest of such a value and
** leave an emoji's halves, or "Ã" before each U+FFFD; against its
** answer (core/reencode.h says when the whole reading wins); then after
** it. */
static const whole_reading aBefore[] = {
  { utf8_cesu_mojibake_possible, read_cesu, 1, 1, 0, 0 },
  { utf8_lossy_mojibake_possible, read_lossy, 1, 3, 0, 0 },
};
static const whole_reading aSb[] = {
  { utf8_sb_mojibake_possible, read_sb, 1, 2, 0, 2 },
};
static const whole_reading aAfter[] = {
  { utf8_cjk_mojibake_possible, read_cjk, 1, 2, CJK_SHORT_BYTES, 0 },
  { utf8_cp437_mojibake_possible, read_cp437, 1, 2, MOJI_MIN_BYTES, 0 },
  { possible_c1, read_c1, 2, 0, 0, 0 },        /* “ (3 bytes) for C2 93 */
  { utf8_sb_mojibake_possible, read_sb_unknown, 1, 2, 0, 1 },
};

/*
** The first of nR readings that reads z[0..n): 1 or more (how many times
** it was read: text misread twice is read back twice, up to
** UTF8_MOJI_MAX_DEPTH) with the text in *paBuf and the names in pChain,
** outermost first; 0 when none does; or -SQLITE_NOMEM. Only a result
** that the reading leaves alone, and the old engine too, is taken. A
** reading with bSame reads a step the readings of all charsets leave
** (too close to call) by the charset of the step before alone; *pbSame
** (when not NULL) is then set.
*/
static int whole_readings(const whole_reading *aR, int nR,
                          const unsigned char *z, sqlite3_int64 n,
                          unsigned char **paBuf, sqlite3_int64 *pnBuf,
                          sqlite3_int64 *pnOut, utf8_moji_charset *pChain,
                          int *pbSame){
  int i;
  for(i=0; i<nR; i++){
    const whole_reading *r = &aR[i];
    unsigned char *aScratch, *aCur, *aNext;
    size_t len = (size_t)n, lenNext = 0;
    sqlite3_uint64 nRoom = (sqlite3_uint64)r->nOut*(sqlite3_uint64)n + 4;
    utf8_moji_charset cs;
    int depth = 0, bNomem;
    if( pbSame ) *pbSame = 0;            /* of the reading returned */
    if( n<r->nMin || !r->xPossible(z, (size_t)n) ) continue;
    if( buf_reserve(paBuf, pnBuf, (sqlite3_int64)nRoom) ) return -SQLITE_NOMEM;
    /* the scratch, then a second buffer for the text read again (the
    ** readings shrink the text, but the one of C1 controls, which may
    ** grow it by half and writes as it reads: room for twice its input) */
    aScratch = sqlite3_malloc64((sqlite3_uint64)r->nScratch*(sqlite3_uint64)n + 4
                                + (sqlite3_uint64)r->nOut*nRoom);
    if( aScratch==0 ) return -SQLITE_NOMEM;
    aCur = (unsigned char*)z;
    aNext = *paBuf;
    while( depth<=UTF8_MOJI_MAX_DEPTH ){
      cs = r->xRead(aCur, len, aNext, &lenNext, aScratch);
      if( cs==UTF8_MOJI_COUNT && depth>0
       && (r->bSame==1 || (r->bSame==2 && has_c1(z, (size_t)n))) ){
        cs = moji_of(utf8_sb_mojibake_as(aCur, len, moji_charset(pChain[depth-1]),
                                         aNext, &lenNext, aScratch));
        if( cs!=UTF8_MOJI_COUNT && pbSame ) *pbSame = 1;
      }
      if( cs==UTF8_MOJI_COUNT ) break;
      if( depth==UTF8_MOJI_MAX_DEPTH ){ depth = 0; break; }   /* still more */
      pChain[depth++] = cs;
      aCur = aNext;
      len = lenNext;
      aNext = aCur==*paBuf ? aScratch + r->nScratch*n + 4 : *paBuf;
    }
    if( depth>0 && aCur!=*paBuf ) memcpy(*paBuf, aCur, len);
    sqlite3_free(aScratch);
    if( depth==0 ) continue;
    if( !moji_settled(*paBuf, len, &bNomem) ){
      if( bNomem ) return -SQLITE_NOMEM;
      continue;
    }
    *pnOut = (sqlite3_int64)len;
    return depth;
  }
  return 0;
}

/*
** 1 if a[0..na), misread again by chain[0..depth) (innermost first), is
** z[0..n) exactly: the old engine undid every misread run of z, and its
** answer is a whole reading too; 0 if not; -SQLITE_NOMEM.
*/
static int is_whole(const unsigned char *a, size_t na,
                    const utf8_moji_charset *chain, int depth,
                    const unsigned char *z, size_t n){
  unsigned char *aCur = 0, *aNext;
  size_t len = na;
  int k, bWhole;
  for(k=depth-1; k>=0; k--){
    utf8_charset cs = moji_charset(chain[k]);
    size_t m = utf8_charset_decode(aCur ? aCur : a, len, cs, 0);
    if( m>n ){ sqlite3_free(aCur); return 0; }   /* longer than z: not z */
    aNext = sqlite3_malloc64((sqlite3_uint64)m + 1);
    if( aNext==0 ){ sqlite3_free(aCur); return -SQLITE_NOMEM; }
    utf8_charset_decode(aCur ? aCur : a, len, cs, aNext);
    sqlite3_free(aCur);
    aCur = aNext;
    len = m;
  }
  bWhole = len==n && memcmp(aCur, z, n)==0;
  sqlite3_free(aCur);
  return bWhole;
}

/* 1 if chains a[0..d) and b[0..d) both read by one charset, the same. */
static int one_charset(const utf8_moji_charset *a, const utf8_moji_charset *b,
                       int d){
  int k;
  for(k=0; k<d; k++) if( a[k]!=a[0] || b[k]!=a[0] ) return 0;
  return 1;
}

/*
** How much less than the old engine's answer o[0..no) (its chain
** pChain[0..depth)) the text of the whole reading w[0..nw) (chain[0..d))
** must cost to replace it, for value z[0..n): SB_MOJI_OVER_OLD, or
** SB_MOJI_OVER_OLD_C1 where z holds a C1 control; less where the answer
** is plainly a step on the way to the whole reading (core/reencode.h):
** runs left misread by the whole reading's charset (SB_MOJI_BETWEEN
** where z holds a C1 control, SB_MOJI_BETWEEN_LONG where each is a
** character of three bytes or more, SB_MOJI_BETWEEN_OTHER where the old
** engine's charset has no byte for each, SB_MOJI_BETWEEN_DEEP where both
** read the value twice or more by one charset), or half a word undone
** (SB_MOJI_MIXED). The least margin that applies.
*/
static int32_t over_old(const unsigned char *z, size_t n,
                        const unsigned char *o, size_t no,
                        const utf8_moji_charset *pChain, int depth,
                        const unsigned char *w, size_t nw,
                        const utf8_moji_charset *chain, int d){
  int bC1 = has_c1(z, n);
  int32_t m = bC1 ? SB_MOJI_OVER_OLD_C1 : SB_MOJI_OVER_OLD;
  utf8_charset csWhole = moji_charset(chain[0]), csOld = moji_charset(pChain[0]);
  if( depth>1 && d==depth && one_charset(pChain, chain, d) ){
    if( utf8_sb_between_edge(o, no, w, nw, csWhole) ){
      return SB_MOJI_BETWEEN_EDGE;    /* the least margin of those below */
    }
    if( utf8_sb_between(o, no, w, nw, csWhole) ) return SB_MOJI_BETWEEN_DEEP;
  }
  if( depth!=1 ) return m;
  if( d==1 && bC1 && SB_MOJI_BETWEEN<m && utf8_sb_between(o, no, w, nw, csWhole) ){
    m = SB_MOJI_BETWEEN;
  }
  if( d==1 && SB_MOJI_BETWEEN_LONG<m && utf8_sb_between_long(o, no, w, nw, csWhole) ){
    m = SB_MOJI_BETWEEN_LONG;
  }
  if( d==1 && SB_MOJI_BETWEEN_EDGE<m && utf8_sb_between_edge(o, no, w, nw, csWhole) ){
    m = SB_MOJI_BETWEEN_EDGE;
  }
  if( d==1 && chain[0]!=pChain[0] && SB_MOJI_BETWEEN_OTHER<m
   && utf8_sb_between_other(o, no, w, nw, csWhole, csOld) ){
    m = SB_MOJI_BETWEEN_OTHER;
  }
  if( SB_MOJI_MIXED<m
   && utf8_sb_mixed_word(z, n, o, no, csOld)>=(d>=2 || chain[0]==pChain[0] ? 1 : 2) ){
    m = SB_MOJI_MIXED;
  }
  return m;
}

/*
** Where the old engine read z[0..n) by windows-1250 depth times into
** o[0..*pLen), iso-8859-2's reading as many times, when it makes other
** text, with no C1 control, that the model prices SB_ISO_OVER_1250 lower
** (core/reencode.h: the two charsets put a few letters at other bytes),
** into o instead (no longer: both write a byte per character). Where the
** two hold a letter of either case at one place, the one whose letter is
** out of step with its neighbours is no text (utf8_sb_case_apart():
** "KÜrper" against "Körper", "HöVELYEZ" against "HÜVELYEZ"): the other is
** taken (at any margin the model gives) or kept. 1 if taken, 0 if not,
** -SQLITE_NOMEM.
*/
static int iso_instead(const unsigned char *z, size_t n, unsigned char *o,
                       size_t *pLen, utf8_moji_charset *pChain, int depth){
  unsigned char *aBuf, *aNext;
  const unsigned char *aCur = z;
  size_t len = n;
  int k, bTake = 0, bCase;
  if( depth<=0 || n>CJK_MOJI_MAX ) return 0;       /* no whole reading past it */
  for(k=0; k<depth; k++) if( pChain[k]!=UTF8_MOJI_CP1250 ) return 0;
  aBuf = sqlite3_malloc64(4*(sqlite3_uint64)n + 8);   /* two scratches */
  if( aBuf==0 ) return -SQLITE_NOMEM;
  aNext = aBuf;
  for(k=0; k<depth && len>0; k++){
    len = utf8_sb_read_exact(aCur, len, UTF8_CS_ISO8859_2, aNext);
    aCur = aNext;
    aNext = aNext==aBuf ? aBuf + 2*n + 4 : aBuf;
  }
  bCase = len>0 ? utf8_sb_case_apart(aCur, len, o, *pLen) : 0;
  if( len>0 && (len!=*pLen || memcmp(aCur, o, len)!=0) && !has_c1(aCur, len) && bCase>=0
   && utf8_guess_text_cheaper(aCur, len, o, *pLen, bCase>0 ? 0 : SB_ISO_OVER_1250) ){
    memcpy(o, aCur, len);
    *pLen = len;
    for(k=0; k<depth; k++) pChain[k] = UTF8_MOJI_ISO8859_2;
    bTake = 1;
  }
  sqlite3_free(aBuf);
  return bTake;
}

/*
** The old engine's answer for z[0..n), into *paBuf: how many misreadings
** it undid, 0, or -SQLITE_NOMEM. A single-byte charset's whole reading
** (aSb) replaces it where it makes other text and either the old
** engine's answer is a whole reading too (it undid every misread run,
** and the readings were weighed against each other: "sĂĽ" is "så" as
** iso-8859-2 and "sü" as cp1250) or the model prices the whole reading's
** text over_old() less (the old engine judges each run alone and may
** leave some misread).
*/
static int old_engine(const unsigned char *z, sqlite3_int64 n,
                      unsigned char **paBuf, sqlite3_int64 *pnBuf,
                      sqlite3_int64 *pnOut, utf8_moji_charset *pChain){
  utf8_moji_charset chain[UTF8_MOJI_MAX_DEPTH];
  unsigned char *aWhole = 0;
  sqlite3_int64 nWhole = 0, nBuf = 0;
  size_t len = 0, wlen = 0;
  int depth, d, bTake = 0, bSame = 0;
  if( !utf8_moji_possible(z, (size_t)n) ) return 0;
  /* undoing only shrinks the text: n bytes are enough */
  if( buf_reserve(paBuf, pnBuf, n+1) ) return -SQLITE_NOMEM;
  depth = utf8_unmojibake(z, (size_t)n, *paBuf, &len, pChain);
  /* a result that is wide text ("H" NUL "i" NUL then "Ã©") would be
  ** decoded by a second call: not settled, nothing is done */
  if( depth==0 || utf8_moji_wide(*paBuf, len, 0, &wlen)!=UTF8_MOJI_COUNT ) return 0;
  /* most often every whole reading makes the old engine's answer, which
  ** none reads again: that answer stands, and the model is not asked */
  if( depth==1 && !utf8_sb_mojibake_possible(*paBuf, len) ){
    unsigned char *aScratch = sqlite3_malloc64(2*(sqlite3_uint64)n + 4);
    int bOnly;
    if( aScratch==0 ) return -SQLITE_NOMEM;
    bOnly = utf8_sb_mojibake_only(z, (size_t)n, *paBuf, len, aScratch);
    sqlite3_free(aScratch);
    if( bOnly ){
      *pnOut = (sqlite3_int64)len;
      return depth;
    }
  }
  d = whole_readings(aSb, 1, z, n, &aWhole, &nBuf, &nWhole, chain, &bSame);
  /* the same text (most often) is not weighed, nor text with a C1
  ** control (a reading that ends in one has not found the text) */
  if( d>0 && ((size_t)nWhole!=len || memcmp(aWhole, *paBuf, len)!=0)
   && !has_c1(aWhole, (size_t)nWhole) ){
    /* a step read by the charset before it alone (bSame) was not weighed
    ** against the others' readings: then the model weighs the texts */
    bTake = bSame ? 0 : is_whole(*paBuf, len, pChain, depth, z, (size_t)n);
    if( bTake==0 ){
      bTake = utf8_guess_text_cheaper(aWhole, (size_t)nWhole, *paBuf, len,
                                      over_old(z, (size_t)n, *paBuf, len, pChain, depth,
                                               aWhole, (size_t)nWhole, chain, d));
    }
  }
  if( bTake>0 ){
    memcpy(*paBuf, aWhole, (size_t)nWhole);     /* shorter than z */
    memcpy(pChain, chain, sizeof(chain[0])*(size_t)d);
    len = (size_t)nWhole;
    depth = d;
  }
  sqlite3_free(aWhole);
  if( d<0 ) return d;
  if( bTake<0 ) return bTake;
  if( iso_instead(z, (size_t)n, *paBuf, &len, pChain, depth)<0 ) return -SQLITE_NOMEM;
  *pnOut = (sqlite3_int64)len;
  return depth;
}

/*
** One pass of utf8ext_unmojibake_buf() over z[0..n): the readings before
** the old engine, the old engine, the readings after it; the first that
** reads the value. How many misreadings it undid (the old engine may
** undo several), 0, or -SQLITE_NOMEM.
*/
static int one_pass(const unsigned char *z, sqlite3_int64 n,
                    unsigned char **paBuf, sqlite3_int64 *pnBuf,
                    sqlite3_int64 *pnOut, utf8_moji_charset *pChain){
  int depth = whole_readings(aBefore, 2, z, n, paBuf, pnBuf, pnOut, pChain, 0);
  if( depth ) return depth;
  depth = old_engine(z, n, paBuf, pnBuf, pnOut, pChain);
  if( depth ) return depth;
  return whole_readings(aAfter, 4, z, n, paBuf, pnBuf, pnOut, pChain, 0);
}

int utf8ext_unmojibake_buf(const unsigned char *z, sqlite3_int64 n,
                           unsigned char **paBuf, sqlite3_int64 *pnBuf,
                           sqlite3_int64 *pnOut, utf8_moji_charset *pChain){
  utf8_moji_charset chain[UTF8_MOJI_MAX_DEPTH], more[UTF8_MOJI_MAX_DEPTH];
  utf8_moji_charset wide;
  unsigned char *aTmp = 0;
  sqlite3_int64 nTmp = 0, nOut = 0, nNext = 0;
  size_t len = 0;
  int depth, d, bNomem, k;
  if( n<=0 ) return 0;
  if( pChain==0 ) pChain = chain;
  /* UTF-16 or UTF-32 without a BOM: decoded whole, ill-formed or not;
  ** costs one memchr for text without a zero byte */
  wide = utf8_moji_wide(z, (size_t)n, 0, &len);
  if( wide!=UTF8_MOJI_COUNT ){
    if( buf_reserve(paBuf, pnBuf, (sqlite3_int64)len+1) ) return -SQLITE_NOMEM;
    utf8_moji_wide(z, (size_t)n, *paBuf, &len);
    /* rule 7 of docs/mojibake.md: only a result a second call leaves
    ** alone (UTF-16 holding "CafÃ©" is left as it is, as text misread
    ** two ways is) */
    if( !moji_settled(*paBuf, len, &bNomem) ) return bNomem ? -SQLITE_NOMEM : 0;
    pChain[0] = wide;
    *pnOut = (sqlite3_int64)len;
    return 1;
  }
  depth = one_pass(z, n, paBuf, pnBuf, &nOut, pChain);
  /* and again on what it gave, until nothing reads it (a value misread
  ** two ways: "Ã©" undone by the old engine, then its C1 controls read as
  ** Windows-1252), so that a second call leaves the result alone */
  while( depth>0 ){
    d = one_pass(*paBuf, nOut, &aTmp, &nTmp, &nNext, more);
    if( d<0 ){ depth = d; break; }
    if( d==0 ) break;
    if( depth+d>UTF8_MOJI_MAX_DEPTH ){
      /* not settled: at the old engine's last pass what it undid stands
      ** (utf8_repair reads it again and refuses: docs/mojibake.md, rule
      ** 7), short of it nothing is done */
      if( depth<UTF8_MOJI_MAX_DEPTH ) depth = 0;
      break;
    }
    for(k=0; k<d; k++) pChain[depth+k] = more[k];
    depth += d;
    if( buf_reserve(paBuf, pnBuf, nNext+1) ){ depth = -SQLITE_NOMEM; break; }
    memcpy(*paBuf, aTmp, (size_t)nNext);
    nOut = nNext;
  }
  sqlite3_free(aTmp);
  if( depth>0 ) *pnOut = nOut;
  return depth;
}

int utf8ext_text_encoding(sqlite3 *db, int *peTextEnc){
  sqlite3_stmt *pStmt = 0;
  const char *z;
  int rc = sqlite3_prepare_v2(db, "PRAGMA encoding", -1, &pStmt, 0);
  *peTextEnc = SQLITE_UTF8;
  if( rc==SQLITE_OK ) rc = sqlite3_step(pStmt);
  if( rc==SQLITE_ROW ){
    z = (const char*)sqlite3_column_text(pStmt, 0);
    if( z==0 ){
      rc = SQLITE_NOMEM;
    }else{
      *peTextEnc = sqlite3_stricmp(z, "UTF-16le")==0 ? SQLITE_UTF16LE :
                   sqlite3_stricmp(z, "UTF-16be")==0 ? SQLITE_UTF16BE :
                   SQLITE_UTF8;
      rc = SQLITE_OK;
    }
  }
  sqlite3_finalize(pStmt);
  return rc;
}

void utf8ext_append_hex(sqlite3_str *p, const unsigned char *z,
                        sqlite3_int64 n){
  static const char hex[] = "0123456789ABCDEF";
  sqlite3_int64 i;
  for(i=0; i<n; i++){
    char a[2];
    a[0] = hex[z[i]>>4];
    a[1] = hex[z[i]&0xF];
    sqlite3_str_append(p, a, 2);
  }
}

/*
** True if the UTF-16 text z[0..n) in byte order eTextEnc cannot be written
** as a quoted SQL literal that SQLite would turn back into the same code
** units: it has a NUL, an unpaired surrogate, or U+FFFE or U+FFFF (which
** SQLite's UTF-8 to UTF-16 conversion of the SQL text makes U+FFFD).
*/
static int utf16_needs_hex(const unsigned char *z, sqlite3_int64 n,
                           int eTextEnc){
  sqlite3_int64 i;
  int hi = eTextEnc==SQLITE_UTF16BE ? 0 : 1;   /* index of the high byte */
  for(i=0; i+1<n; i+=2){
    unsigned u = (unsigned)z[i+hi]<<8 | z[i+1-hi];
    if( u==0 || u>=0xFFFE ) return 1;
    if( u>=0xDC00 && u<=0xDFFF ) return 1;          /* a lone low half */
    if( u>=0xD800 && u<=0xDBFF ){
      unsigned w;
      if( i+3>=n ) return 1;
      w = (unsigned)z[i+2+hi]<<8 | z[i+3-hi];
      if( w<0xDC00 || w>0xDFFF ) return 1;
      i += 2;
    }
  }
  return n%2!=0;
}

/* Append CAST(X'..' AS TEXT) of z[0..n) to p. */
static void append_text_cast(sqlite3_str *p, const unsigned char *z,
                             sqlite3_int64 n){
  sqlite3_str_appendall(p, "CAST(X'");
  utf8ext_append_hex(p, z, n);
  sqlite3_str_appendall(p, "' AS TEXT)");
}

/*
** 1 if the SQL expression z, run as "SELECT z" on db, gives exactly the
** double r (bit for bit); 0 if not, or if it cannot be run.
*/
static int sqlite_reads_back(sqlite3 *db, const char *z, double r){
  sqlite3_stmt *pStmt = 0;
  char *zSql = sqlite3_mprintf("SELECT %s", z);
  double got;
  int ok = 0;
  if( zSql==0 ) return 0;
  if( sqlite3_prepare_v2(db, zSql, -1, &pStmt, 0)==SQLITE_OK
   && sqlite3_step(pStmt)==SQLITE_ROW
   && sqlite3_column_type(pStmt, 0)==SQLITE_FLOAT ){
    got = sqlite3_column_double(pStmt, 0);
    ok = memcmp(&got, &r, sizeof(r))==0;
  }
  sqlite3_finalize(pStmt);
  sqlite3_free(zSql);
  return ok;
}

/*
** Write the finite double r into z (nz bytes) as a literal: C's correctly
** rounded %.17g, with ".0" when it would read as an integer.
*/
static void real_digits(char *z, size_t nz, double r){
  snprintf(z, nz, "%.17g", r);
  if( strpbrk(z, ".eEnN")==0 && strlen(z)+3<=nz ) strcat(z, ".0");
}

/*
** Append the finite double r as a literal that SQLite on db parses back
** to r exactly (see utf8ext_append_literal). The scaled forms: r is
** y/2^(62k) or y*2^(62k), y = r scaled by a power of two (exact) into the
** range SQLite parses well, and each division or product by the integer
** 4611686018427387904 (2^62) is exact, since every step's value is r
** times a power of two that is representable.
*/
static void append_real(sqlite3_str *p, double r, sqlite3 *db){
  char z[48], zExpr[48 + 4*21];
  double y;
  int k, e;
  if( r==0.0 ){
    sqlite3_str_appendall(p, "0.0");   /* -0.0 too: it equals 0.0 */
    return;
  }
  real_digits(z, sizeof(z), r);
  if( db==0 || sqlite_reads_back(db, z, r) ){
    sqlite3_str_appendall(p, z);
    return;
  }
  /* e: scale up (a small r) or down (a large one); no libm needed */
  e = r<1.0 && r>-1.0 ? -1 : 1;
  y = r;
  for(k=1; k<=4; k++){
    int i;
    if( e<0 ){ y *= 4611686018427387904.0; }else{ y /= 4611686018427387904.0; }
    if( y==0.0 || y>DBL_MAX || y< -DBL_MAX ) break;
    real_digits(z, sizeof(z), y);
    snprintf(zExpr, sizeof(zExpr), "(%s", z);
    for(i=0; i<k; i++){
      strcat(zExpr, e<0 ? "/4611686018427387904" : "*4611686018427387904");
    }
    strcat(zExpr, ")");
    if( sqlite_reads_back(db, zExpr, r) ){
      sqlite3_str_appendall(p, zExpr);
      return;
    }
  }
  /* not reached with the SQLite versions tested: the closest digits */
  real_digits(z, sizeof(z), r);
  sqlite3_str_appendall(p, z);
}

void utf8ext_append_literal(sqlite3_str *p, sqlite3_value *v, int eTextEnc,
                            sqlite3 *db){
  const unsigned char *z;
  sqlite3_int64 n;
  double r;
  switch( sqlite3_value_type(v) ){
    case SQLITE_INTEGER:
      sqlite3_str_appendf(p, "%lld", sqlite3_value_int64(v));
      break;
    case SQLITE_FLOAT:
      r = sqlite3_value_double(v);
      if( r>DBL_MAX ){
        sqlite3_str_appendall(p, "9e999");
      }else if( r< -DBL_MAX ){
        sqlite3_str_appendall(p, "-9e999");
      }else{
        append_real(p, r, db);
      }
      break;
    case SQLITE_TEXT:
      if( eTextEnc!=SQLITE_UTF8 ){
        if( !utf8ext_stored_text(v, eTextEnc, &z, &n) ) break;  /* NOMEM */
        if( utf16_needs_hex(z, n, eTextEnc) ){
          append_text_cast(p, z, n);
          break;
        }
      }
      z = sqlite3_value_text(v);
      n = sqlite3_value_bytes(v);
      if( z==0 ) break;   /* out of memory: the statement fails NOMEM */
      if( utf8_is_valid(z, (size_t)n) && memchr(z, 0, (size_t)n)==0 ){
        sqlite3_str_appendf(p, "%Q", z);
      }else{
        append_text_cast(p, z, n);
      }
      break;
    case SQLITE_BLOB:
      z = sqlite3_value_blob(v);
      sqlite3_str_appendall(p, "X'");
      utf8ext_append_hex(p, z, sqlite3_value_bytes(v));
      sqlite3_str_appendall(p, "'");
      break;
    default:
      sqlite3_str_appendall(p, "NULL");
      break;
  }
}

void utf8ext_append_escaped(sqlite3_str *p, const unsigned char *z,
                            sqlite3_int64 n){
  sqlite3_int64 i = 0;
  while( i<n ){
    size_t k = utf8_find_error(z+i, (size_t)(n-i));
    utf8_unit u;
    sqlite3_int64 j;
    sqlite3_str_append(p, (const char*)z+i, (int)k);
    i += (sqlite3_int64)k;
    if( i>=n ) break;
    u = utf8_decode_unit(z+i, (size_t)(n-i));
    for(j=0; j<u.length; j++) sqlite3_str_appendf(p, "\\x%02X", z[i+j]);
    i += u.length;
  }
}

/*
** The length of the prefix of z[0..n) that ends at a character boundary
** and is at most nMax bytes: continuation bytes (10xxxxxx) at the cut are
** given back to the character they belong to (at most 3 of them).
*/
static size_t utf8_prefix(const char *z, size_t n, size_t nMax){
  size_t k, i;
  if( n<=nMax ) return n;
  k = nMax;
  for(i=0; i<3 && k>0 && ((unsigned char)z[k] & 0xC0)==0x80; i++) k--;
  if( k>0 && ((unsigned char)z[k] & 0xC0)==0x80 ) k = nMax;  /* not UTF-8 */
  return k;
}

char *utf8ext_message_fit(sqlite3 *db, char *z){
  int iLimit;
  size_t n, nMax, k;
  if( z==0 || db==0 ) return z;
  iLimit = sqlite3_limit(db, SQLITE_LIMIT_LENGTH, -1);
  n = strlen(z);
  /* SQLite copies the message with its own printf, which needs room for
  ** the terminating NUL under the limit: at most iLimit-1 bytes */
  if( iLimit<1 || n<(size_t)iLimit ) return z;
  nMax = (size_t)iLimit - 1;
  if( nMax>=3+16 ){
    /* "..." says it was cut; only when enough of the message is left */
    k = utf8_prefix(z, n, nMax-3);
    memcpy(z+k, "...", 4);
  }else{
    k = utf8_prefix(z, n, nMax);
    z[k] = 0;
  }
  return z;
}

void utf8ext_result_error(sqlite3_context *ctx, const char *zMsg, int rc){
  char *zCopy;
  if( zMsg==0 || rc==SQLITE_NOMEM ){
    sqlite3_result_error_nomem(ctx);
    return;
  }
  zCopy = sqlite3_mprintf("%s", zMsg);
  if( zCopy==0 ){
    sqlite3_result_error_nomem(ctx);
    return;
  }
  utf8ext_message_fit(sqlite3_context_db_handle(ctx), zCopy);
  sqlite3_result_error(ctx, zCopy, -1);
  sqlite3_free(zCopy);
  /* a code that is not an error (SQLITE_ROW, SQLITE_DONE) would make the
  ** calling statement return a row, and the shell step it again for ever */
  if( rc!=SQLITE_OK && rc!=SQLITE_ERROR && (rc&0xFF)!=SQLITE_ROW
   && (rc&0xFF)!=SQLITE_DONE ){
    sqlite3_result_error_code(ctx, rc);
  }
}

void utf8ext_result_errorf(sqlite3_context *ctx, const char *zFormat, ...){
  va_list ap;
  char *zMsg;
  va_start(ap, zFormat);
  zMsg = sqlite3_vmprintf(zFormat, ap);
  va_end(ap);
  utf8ext_result_error(ctx, zMsg, SQLITE_ERROR);
  sqlite3_free(zMsg);
}

/*
** The names utf8_recode's ENC and utf8_repair's METHOD accept. 'latin1' is
** ISO-8859-1 proper, each byte its own code point, as Python reads it (the
** WHATWG Encoding Standard maps the label latin1 to windows-1252 instead;
** utf8ext keeps the two apart).
*/
static const struct { const char *zName; utf8_recode_enc enc; } aEncName[] = {
  { "cp1252",       UTF8_RECODE_CP1252 },
  { "windows-1252", UTF8_RECODE_CP1252 },
  { "latin1",       UTF8_RECODE_LATIN1 },
  { "latin-1",      UTF8_RECODE_LATIN1 },
  { "iso-8859-1",   UTF8_RECODE_LATIN1 },
  { "iso8859-1",    UTF8_RECODE_LATIN1 },
  { "cesu8",        UTF8_RECODE_CESU8 },
  { "cesu-8",       UTF8_RECODE_CESU8 },
  { "mutf8",        UTF8_RECODE_MUTF8 },
};

int utf8ext_encoding_named(const char *z, sqlite3_int64 n,
                           utf8_recode_enc *pEnc){
  size_t i;
  if( z==0 || (sqlite3_int64)strlen(z)!=n ) return 0;
  for(i=0; i<sizeof(aEncName)/sizeof(aEncName[0]); i++){
    if( sqlite3_stricmp(z, aEncName[i].zName)==0 ){
      *pEnc = aEncName[i].enc;
      return 1;
    }
  }
  return 0;
}

int utf8ext_charset_named(const char *z, sqlite3_int64 n){
  if( z==0 || n<0 || (sqlite3_int64)strlen(z)!=n ) return -1;
  return utf8_charset_lookup(z, (size_t)n);
}

/*
** The canonical names of the legacy charsets, for the error message of an
** unknown ENC: "'ibm866', 'iso-8859-2', ... 'euc-kr'".
*/
void utf8ext_charset_names(char *buf, size_t size){
  size_t o = 0;
  int cs;
  buf[0] = 0;
  for(cs=0; cs<UTF8_CS_COUNT; cs++){
    const char *z = utf8_charset_name((utf8_charset)cs);
    size_t len = strlen(z);
    if( o+len+6>=size ) break;
    if( cs ){ memcpy(buf+o, ", ", 2); o += 2; }
    buf[o++] = '\'';
    memcpy(buf+o, z, len); o += len;
    buf[o++] = '\'';
    buf[o] = 0;
  }
}
