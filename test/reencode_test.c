/*
** test/reencode_test.c - the CJK mojibake reading (core/reencode.h), on
** strings made from a fixed seed:
**
** 1. phrases of real words (below) in Chinese, Japanese, Korean, Russian
**    and German, their UTF-8 decoded strictly as each of gb18030,
**    shift_jis, big5 and euc-kr: every one that the decoder reads without
**    U+FFFD must come back exactly, named by its charset (but those whose
**    only CJK characters are halfwidth katakana, read at a wider margin:
**    none may be read wrongly);
** 2. the same phrases as they are: none changed; their UTF-8 read as
**    IBM437 (utf8_cp437_mojibake, the reading asked alone): every one
**    must come back; and read as each single-byte charset of the whole
**    reading (utf8_sb_mojibake): every one must come back exactly;
** 3. random well-formed text (CJK, kana, Hangul, Latin, Cyrillic,
**    fullwidth forms and ASCII mixed): whatever the reading does, a
**    result must be shorter, well-formed, and decode back to the input
**    with the charset named (so that undoing is exact); and the cheap
**    test must say "possible" for every value the reading changes.
**
**    utf8_sb_mojibake_only() must agree with those readings;
** 4. utf8_guess_text_cheaper() on text and its misreading;
** 5. utf8_sb_between() on an answer with runs left and without, and
**    utf8_sb_between_long();
** 6. utf8_sb_mixed_word() on answers that undid half a word and not;
** 7. utf8_glued_runs();
** 8. utf8_sb_mojibake_possible() against its one-charset-at-a-time form;
** 9. utf8_sb_mojibake_as();
** 10. utf8_sb_between_other();
** 11. utf8_sb_between_edge();
** 12. utf8_sb_case_apart();
** 13. utf8_sb_misread_uncased().
**
** The last line is "reencode: N passed, N failed".
*/
#include "reencode.h"
#include "charsets.h"
#include "utf8.h"
#include "guess.h"

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static uint64_t rng = 20261129;
static uint32_t rnd(void){
  rng ^= rng<<13; rng ^= rng>>7; rng ^= rng<<17;
  return (uint32_t)(rng>>11);
}

static const char *const azWord[] = {
  "文件", "未找到", "设置", "已保存", "密码", "错误", "用户", "网络", "连接",
  "檔案", "不存在", "系統", "設定", "ファイル", "が", "見つかりません", "エラー",
  "発生しました", "ログイン", "設定を保存", "파일을", "찾을", "수", "없습니다",
  "저장되었습니다", "비밀번호", "Привет", "мир", "файл", "не", "найден",
  "Überprüfung", "fehlgeschlagen", "Größe", "Datei", "ist", "ungültig",
};
#define N_WORD (int)(sizeof(azWord)/sizeof(azWord[0]))

static const utf8_charset aCs[] = {
  UTF8_CS_GB18030, UTF8_CS_SHIFT_JIS, UTF8_CS_BIG5, UTF8_CS_EUC_KR,
};

/* 1 if s[0..n) has a CJK character that is not a halfwidth katakana. */
static int has_cjk_char(const unsigned char *s, size_t n){
  size_t i = 0;
  while( i<n ){
    utf8_unit u = utf8_decode_unit(s+i, n-i);
    uint32_t cp = u.codepoint;
    if( (cp>=0x2E80 && cp<=0x9FFF) || (cp>=0xAC00 && cp<=0xD7A3)
     || (cp>=0xF900 && cp<=0xFF60) ) return 1;
    i += u.length;
  }
  return 0;
}

/* A phrase of 1 to 4 words, with spaces or not, into buf; its length. */
static size_t phrase(char *buf){
  int k, nWord = 1 + (int)(rnd()%4);
  size_t n = 0;
  for(k=0; k<nWord; k++){
    const char *w = azWord[rnd()%N_WORD];
    if( k>0 && rnd()%2 ) buf[n++] = ' ';
    memcpy(buf+n, w, strlen(w));
    n += strlen(w);
  }
  return n;
}

/* Random well-formed text of up to 24 characters into buf; its length. */
static size_t random_text(unsigned char *buf){
  static const uint32_t aRange[][2] = {
    {0x20, 0x7E}, {0x4E00, 0x9FFF}, {0x3040, 0x30FF}, {0xAC00, 0xD7A3},
    {0xC0, 0x17F}, {0x410, 0x44F}, {0xFF01, 0xFF9F}, {0x3000, 0x303F},
  };
  int k, nChar = 1 + (int)(rnd()%24);
  size_t n = 0;
  for(k=0; k<nChar; k++){
    const uint32_t *r = aRange[rnd()%8];
    uint32_t cp = r[0] + rnd()%(r[1]-r[0]+1);
    n += utf8_encode_scalar(cp, buf+n);
  }
  return n;
}

/* Cases of a function of two texts and a charset (utf8_sb_between() and
** the like): a[i].a and a[i].b passed in that order, and the answer
** wanted. Prints each wrong one and a summary; returns how many. */
typedef int (*pair_fn)(const unsigned char*, size_t, const unsigned char*,
                       size_t, utf8_charset);
typedef struct pair_case { const char *a, *b; utf8_charset cs; int want; } pair_case;
#define COUNT(a) ((int)(sizeof(a)/sizeof((a)[0])))
static int pair_cases(const char *zName, pair_fn x, const pair_case *a, int n){
  int i, nBad = 0;
  for(i=0; i<n; i++){
    int got = x((const unsigned char*)a[i].a, strlen(a[i].a),
                (const unsigned char*)a[i].b, strlen(a[i].b), a[i].cs);
    if( got!=a[i].want ){
      printf("%s %d: got %d, want %d\n", zName, i, got, a[i].want);
      nBad++;
    }
  }
  printf("%s: %d cases, %d wrong\n", zName, n, nBad);
  return nBad;
}

int main(void){
  static unsigned char aOut[4096*4], aScratch[4096*4*2+4], aMoji[4096*4], aBack[4096*4];
  char zPhrase[1024];
  long nMoji = 0, nBack = 0, nWrong = 0, nClean = 0, nCleanChanged = 0, nHalf = 0;
  long nHalfBack = 0;
  long nRandom = 0, nRandomChanged = 0, nRandomBad = 0;
  int nPass = 0, nFail = 0, k, j;
  printf("seed %llu (fixed: the same strings every run)\n", (unsigned long long)rng);

  for(k=0; k<20000; k++){
    size_t n = phrase(zPhrase), m, len = 0;
    int cs;
    nClean++;
    if( utf8_cjk_mojibake((unsigned char*)zPhrase, n, aOut, &len, aScratch)>=0 ){
      if( nCleanChanged++<5 ) printf("clean changed: %.*s\n", (int)n, zPhrase);
    }
    for(j=0; j<4; j++){
      m = utf8_charset_decode((unsigned char*)zPhrase, n, aCs[j], 0);
      if( m>sizeof(aMoji) ) continue;
      utf8_charset_decode((unsigned char*)zPhrase, n, aCs[j], aMoji);
      if( m==n && memcmp(aMoji, zPhrase, n)==0 ) continue;       /* ASCII */
      {
        size_t i;
        int bLoss = 0;
        for(i=0; i+2<m; i++) if( memcmp(aMoji+i, "\xEF\xBF\xBD", 3)==0 ) bLoss = 1;
        if( bLoss ) continue;                       /* not read strictly */
      }
      cs = utf8_cjk_mojibake(aMoji, m, aOut, &len, aScratch);
      if( !has_cjk_char(aMoji, m) ){
        /* halfwidth katakana alone (Latin or Cyrillic read as
        ** Shift_JIS): read at a wider margin, so a short one may be
        ** left; never read wrongly */
        nHalf++;
        if( cs==(int)aCs[j] && len==n && memcmp(aOut, zPhrase, n)==0 ) nHalfBack++;
        else if( cs>=0 && nWrong++<5 ){
          printf("halfwidth read wrongly: %.*s -> %.*s\n", (int)n, zPhrase,
                 (int)len, aOut);
        }
        continue;
      }
      nMoji++;
      if( cs==(int)aCs[j] && len==n && memcmp(aOut, zPhrase, n)==0 ){
        nBack++;
      }else{
        if( nWrong++<5 ){
          printf("not back: %.*s as %s -> %d\n", (int)n, zPhrase,
                 utf8_charset_name(aCs[j]), cs);
        }
      }
    }
  }
  {
    long nDos = 0, nDosBack = 0;
    for(k=0; k<5000; k++){
      size_t n = phrase(zPhrase), m, len = 0;
      m = utf8_charset_decode((unsigned char*)zPhrase, n, UTF8_CS_IBM437, aMoji);
      if( m==n ) continue;                                    /* ASCII */
      nDos++;
      if( utf8_cp437_mojibake(aMoji, m, aOut, &len, aScratch)==UTF8_CS_IBM437
       && len==n && memcmp(aOut, zPhrase, n)==0 ){
        nDosBack++;
      }else if( nDos-nDosBack<=5 ){
        printf("not back (ibm437): %.*s\n", (int)n, zPhrase);
      }
    }
    printf("ibm437: %ld misread, %ld back exactly\n", nDos, nDosBack);
    if( nDos>1000 && nDosBack==nDos ) nPass++; else nFail++;
  }
  {
    static const utf8_charset aSb[] = {
      UTF8_CS_WINDOWS_1252, UTF8_CS_LATIN1, UTF8_CS_WINDOWS_1250,
      UTF8_CS_WINDOWS_1251, UTF8_CS_MACINTOSH, UTF8_CS_WINDOWS_1257,
      UTF8_CS_ISO8859_2, UTF8_CS_IBM437,
    };
    long nSb = 0, nSbBack = 0, nSbWrong = 0, nOnly = 0, nOnlyBad = 0;
    size_t j, i;
    int cs;
    for(k=0; k<2000; k++){
      size_t n = phrase(zPhrase), m, len = 0;
      for(j=0; j<sizeof(aSb)/sizeof(aSb[0]); j++){
        m = utf8_charset_decode((unsigned char*)zPhrase, n, aSb[j], aMoji);
        if( m==n ) continue;                                  /* ASCII */
        /* a byte the charset leaves undefined (windows-1257's A1, A5)
        ** is U+FFFD, lost: no reading can give the text back */
        for(i=0; i+2<m && !(aMoji[i]==0xEF && aMoji[i+1]==0xBF
                              && aMoji[i+2]==0xBD); i++){}
        if( i+2<m ) continue;
        nSb++;
        cs = utf8_sb_mojibake(aMoji, m, aOut, &len, aScratch);
        if( cs>=0 && len==n && memcmp(aOut, zPhrase, n)==0 ){
          nSbBack++;
        }else if( (cs>=0 && ++nSbWrong) || nSb-nSbBack<=5 ){
          printf("not back (%s): %.*s\n", utf8_charset_name(aSb[j]),
                 (int)n, zPhrase);
        }
        /* utf8_sb_mojibake_only: where it says every reading makes the
        ** phrase, the reading gives the phrase or nothing; and a reading
        ** that gives the phrase is never "only" some other text */
        if( utf8_sb_mojibake_only(aMoji, m, (unsigned char*)zPhrase, n, aScratch) ){
          nOnly++;
          if( cs>=0 && (len!=n || memcmp(aOut, zPhrase, n)!=0) ) nOnlyBad++;
        }
        if( cs>=0 && len==n && memcmp(aOut, zPhrase, n)==0
         && utf8_sb_mojibake_only(aMoji, m, (const unsigned char*)"x", 1, aScratch) ){
          nOnlyBad++;
        }
      }
    }
    printf("only: %ld misread phrases every reading makes the phrase of, "
           "%ld inconsistent\n", nOnly, nOnlyBad);
    if( nOnly>1000 && nOnlyBad==0 ) nPass++; else nFail++;
    /* a short phrase ("ungültig" as windows-1250's "ungĂĽltig") may
    ** not reach the margin and is left: at least 99% must come back */
    printf("single-byte: %ld misread, %ld back exactly, %ld wrong\n",
           nSb, nSbBack, nSbWrong);
    if( nSb>8000 && nSbWrong==0 && nSbBack*100>=nSb*99 ) nPass++; else nFail++;
  }
  printf("phrases: %ld misread strictly, %ld back exactly; %ld of halfwidth "
         "katakana alone, %ld back, none wrong: %s; %ld clean, %ld changed\n",
         nMoji, nBack, nHalf, nHalfBack, nWrong ? "no" : "yes", nClean,
         nCleanChanged);
  /* more than half of the halfwidth ones come back (413 of 687 at the
  ** margin of 100 bits; none did before it) */
  if( nMoji>1000 && nWrong==0 && nHalfBack*2>nHalf ) nPass++; else nFail++;
  if( nCleanChanged==0 ) nPass++; else nFail++;

  for(k=0; k<200000; k++){
    size_t n = random_text(aOut), len = 0;
    unsigned char in[256];
    int cs;
    memcpy(in, aOut, n);
    nRandom++;
    cs = utf8_cjk_mojibake(in, n, aOut, &len, aScratch);
    if( cs<0 ) continue;
    nRandomChanged++;
    if( len>=n || !utf8_is_valid(aOut, len) || !utf8_cjk_mojibake_possible(in, n)
     || utf8_charset_decode(aOut, len, (utf8_charset)cs, 0)!=n ){
      nRandomBad++;
      continue;
    }
    utf8_charset_decode(aOut, len, (utf8_charset)cs, aBack);
    if( memcmp(aBack, in, n)!=0 ) nRandomBad++;
  }
  printf("random text: %ld values, %ld changed, %ld of those not exactly undoable\n",
         nRandom, nRandomChanged, nRandomBad);
  if( nRandomBad==0 ) nPass++; else nFail++;

  /* 4. utf8_guess_text_cheaper(), which weighs a whole reading against
  ** the old engine's answer: "café crème" costs less than its misreading,
  ** not the other way round, and not by 1,000 bits */
  {
    static const char zCafe[] = "caf\xC3\xA9 cr\xC3\xA8me";
    static const char zMoji[] = "caf\xC3\x83\xC2\xA9 cr\xC3\x83\xC2\xA8me";
    const unsigned char *a = (const unsigned char*)zCafe;
    const unsigned char *b = (const unsigned char*)zMoji;
    int bCafe = utf8_guess_text_cheaper(a, strlen(zCafe), b, strlen(zMoji), 0);
    int bBack = utf8_guess_text_cheaper(b, strlen(zMoji), a, strlen(zCafe), 0);
    int bMargin = utf8_guess_text_cheaper(a, strlen(zCafe), b, strlen(zMoji), 1000*4);
    printf("cheaper: cafe %d, its misreading %d, past 1000 bits %d\n",
           bCafe, bBack, bMargin);
    if( bCafe==1 && bBack==0 && bMargin==0 ) nPass++; else nFail++;
  }

  /* 5. utf8_sb_between(), which lets a whole reading finish the old
  ** engine's answer: the answer o, the whole reading w, the charset, and
  ** whether o is w with some characters still misread by it; and
  ** utf8_sb_between_long(), the same with every character left of three
  ** bytes or more ("Î®" for ή is of two) */
  {
    static const pair_case aBetween[] = {
      { "Windows \xC3\x8E\xC2\xAE WebDAV \xCE\xAC\xCE\xBB\xCE\xBB\xCE\xBF\xCE\xBD", "Windows \xCE\xAE WebDAV \xCE\xAC\xCE\xBB\xCE\xBB\xCE\xBF\xCE\xBD", UTF8_CS_WINDOWS_1250, 1 },  /* one run left */
      { "Windows \xCE\xAE WebDAV \xCE\xAC\xCE\xBB\xCE\xBB\xCE\xBF\xCE\xBD", "Windows \xCE\xAE WebDAV \xCE\xAC\xCE\xBB\xCE\xBB\xCE\xBF\xCE\xBD", UTF8_CS_WINDOWS_1250, 0 },  /* none left: the same text */
      { "\xC3\x8E\xC2\xAE WebDAV", "\xCE\xAE WebDAV", UTF8_CS_WINDOWS_1250, 0 },  /* none kept */
      { "\xC4\x82\xC2\xA0p\xC5\x99\xC3\xADli\xC5\xA1", "\xC3\xA0p\xC5\x99\xC3\xADli\xC5\xA1", UTF8_CS_WINDOWS_1250, 0 },  /* an NBSP glued */
      { "\xC3\x83\xC2\xA9 p\xC5\x99\xC3\xADli\xC5\xA1", "\xC3\xA9 p\xC5\x99\xC3\xADli\xC5\xA1", UTF8_CS_WINDOWS_1250, 0 },  /* left misread by another charset */
      { "\xC3\x83\xC2\xA9 p\xC5\x99\xC3\xADli\xC5\xA1", "\xC3\xA9 p\xC5\x99\xC3\xADli\xC5\xA1", UTF8_CS_WINDOWS_1252, 1 },  /* the same, by that charset */
    };
    static const pair_case aLong[] = {
      { " c\xC3\xA1" "c kho m\xC3\xA3 ngu\xC3\xA1\xC2\xBB\xE2\x80\x9Cn Git.", " c\xC3\xA1" "c kho m\xC3\xA3 ngu\xE1\xBB\x93n Git.", UTF8_CS_WINDOWS_1250, 1 },  /* "ồ" left */
      { "Windows \xC3\x8E\xC2\xAE WebDAV \xCE\xAC\xCE\xBB\xCE\xBB\xCE\xBF\xCE\xBD", "Windows \xCE\xAE WebDAV \xCE\xAC\xCE\xBB\xCE\xBB\xCE\xBF\xCE\xBD", UTF8_CS_WINDOWS_1250, 0 },  /* "ή" left */
    };
    if( pair_cases("between", utf8_sb_between, aBetween, COUNT(aBetween))==0 ) nPass++; else nFail++;
    if( pair_cases("between long", utf8_sb_between_long, aLong, COUNT(aLong))==0 ) nPass++; else nFail++;
  }

  /* 6. utf8_sb_mixed_word(): the value, the old engine's answer, the
  ** charset, and whether the answer undid half a word (1), keeping in it
  ** a character the charset has no byte for (2) */
  {
    static const pair_case aMixed[] = {
      { "nyomtat\xC3\x84\xE2\x80\xA0\xC4\x80\xC2\xB3t a r", "nyomtat\xC4\x86\xC4\x80\xC2\xB3t a r", UTF8_CS_WINDOWS_1252, 2 },  /* half a word undone, Ā kept */
      { "Hoskovcov\xC3\xA1\xC2\xAC\xC2\xB5", "Hoskovcov\xC3\xA1\xC2\xB5", UTF8_CS_MACINTOSH, 1 },  /* á kept, which it has */
      { "caf\xC3\xA9 \xC3\x83\xC2\xA9", "caf\xC3\xA9 \xC3\xA9", UTF8_CS_WINDOWS_1252, 0 },  /* a word kept, a word undone */
      { "\xD0\x9E\xC2\xA0kn\xD0\x93\xC2\xAD\xD0\x95\xD1\x95" "ec\xD0\x93\xC2\xAD", "\xD0\x9E\xC2\xA0kn\xC3\xAD\xC5\xBE" "ec\xC3\xAD", UTF8_CS_WINDOWS_1251, 0 },  /* an NBSP between */
      { "nyomtat\xC3\x84\xE2\x80\xA0\xC4\x80\xC2\xB3t", "nyomtat\xC4\x86\xC4\x80\xC2\xB3t", UTF8_CS_WINDOWS_1251, 0 },  /* not misread by that charset */
      { " o b\xC3\x85\xE2\x84\xA2\xC4\x86\xC2\xADzku, ", " o b\xC5\x99\xC4\x86\xC2\xADzku, ", UTF8_CS_WINDOWS_1252, 2 },  /* and Ć, which it has no byte for */
    };
    if( pair_cases("mixed word", utf8_sb_mixed_word, aMixed, COUNT(aMixed))==0 ) nPass++; else nFail++;
  }

  /* 7. utf8_glued_runs(): each run outside ASCII one character next to an
  ** ASCII letter */
  {
    static const char *azYes[] = { "s\xE7\x96\x86t filer", "\xE7\xA6\xB3ovlasti" };
    /* apart; no run; nothing; a run of two characters ("PC철철") */
    static const char *azNo[] = { "c \xE4\xBB\x8B\xE9\x9D\xA2", "abc def", "",
                                  "PC\xEC\xB2\xA0\xEC\xB2\xA0" };
    int k, nBad = 0;
    for(k=0; k<2; k++) nBad += utf8_glued_runs((const unsigned char*)azYes[k], strlen(azYes[k]))!=1;
    for(k=0; k<4; k++) nBad += utf8_glued_runs((const unsigned char*)azNo[k], strlen(azNo[k]))!=0;
    printf("glued runs: 6 cases, %d wrong\n", nBad);
    if( nBad==0 ) nPass++; else nFail++;
  }

  /* 8. utf8_sb_mojibake_possible() (every single-byte charset in one
  ** walk) against utf8_sb_mojibake_possible_plain() (one at a time): the
  ** same mask for random text over the characters misreadings make and
  ** for the phrases misread once and twice by each charset */
  {
    static const uint32_t aRange[][2] = {
      {0x20, 0x7E}, {0x80, 0xFF}, {0x100, 0x17F}, {0x2C6, 0x2DD},
      {0x400, 0x45F}, {0x2010, 0x2044}, {0x2122, 0x2122}, {0x20AC, 0x20AC},
      {0x2500, 0x25A0}, {0x4E00, 0x4E40},
    };
    static const utf8_charset aMis[] = {
      UTF8_CS_WINDOWS_1252, UTF8_CS_WINDOWS_1250, UTF8_CS_WINDOWS_1251,
      UTF8_CS_MACINTOSH, UTF8_CS_WINDOWS_1257, UTF8_CS_ISO8859_2, UTF8_CS_IBM437,
    };
    unsigned char a[200], b[600], c[1800];
    long nVal = 0, nPass8 = 0, nDiff = 0;
    for(k=0; k<300000; k++){
      int nChar = 1 + (int)(rnd()%12), i2, m1, m2;
      size_t n = 0;
      for(i2=0; i2<nChar; i2++){
        const uint32_t *r = aRange[rnd()%10];
        n += utf8_encode_scalar(r[0] + rnd()%(r[1]-r[0]+1), a+n);
      }
      m1 = utf8_sb_mojibake_possible(a, n);
      m2 = utf8_sb_mojibake_possible_plain(a, n);
      nVal++; nPass8 += m1!=0; nDiff += m1!=m2;
    }
    for(k=0; k<20000; k++){
      char zP[256];
      size_t n = phrase(zP), m, m2b;
      const utf8_charset cs = aMis[rnd()%7];
      m = utf8_charset_decode((unsigned char*)zP, n, cs, 0);
      if( m>sizeof(b) ) continue;
      utf8_charset_decode((unsigned char*)zP, n, cs, b);
      nVal++;
      nPass8 += utf8_sb_mojibake_possible(b, m)!=0;
      nDiff += utf8_sb_mojibake_possible(b, m)!=utf8_sb_mojibake_possible_plain(b, m);
      m2b = utf8_charset_decode(b, m, cs, 0);
      if( m2b>sizeof(c) ) continue;
      utf8_charset_decode(b, m, cs, c);
      nVal++;
      nPass8 += utf8_sb_mojibake_possible(c, m2b)!=0;
      nDiff += utf8_sb_mojibake_possible(c, m2b)!=utf8_sb_mojibake_possible_plain(c, m2b);
    }
    printf("sb possible: %ld values, %ld possible, %ld masks differ\n", nVal, nPass8, nDiff);
    if( nDiff==0 && nPass8>1000 ) nPass++; else nFail++;
  }

  /* 9. utf8_sb_mojibake_as(): one charset's reading alone (ISO-8859-2's of
  ** Catalan misread once by it; windows-1251 has no such reading) */
  {
    static const char zIn[] = "Aquest mecanisme utilitza l'eina dedicada pam-auth-update (prove\xC4\x82\xC5\xBB" "da pel paquet libpam-runtime).";
    static const char zWant[] = "Aquest mecanisme utilitza l'eina dedicada pam-auth-update (prove\xC3\xAF" "da pel paquet libpam-runtime).";
    unsigned char aOut[256], aScr[600];
    size_t len = 0, len2 = 0;
    int a = utf8_sb_mojibake_as((const unsigned char*)zIn, strlen(zIn), UTF8_CS_ISO8859_2,
                                aOut, &len, aScr);
    int ok = a==UTF8_CS_ISO8859_2 && len==strlen(zWant) && memcmp(aOut, zWant, len)==0;
    int b = utf8_sb_mojibake_as((const unsigned char*)zIn, strlen(zIn), UTF8_CS_WINDOWS_1251,
                                aOut, &len2, aScr);
    printf("sb as: iso-8859-2 %s, windows-1251 %d\n", ok ? "back" : "not back", b);
    if( ok && b<0 ) nPass++; else nFail++;
  }

  /* 10. utf8_sb_between_other(): "Ć§" (ç as windows-1257) left by a
  ** reader of cp1252, which has no Ć, and not by one of cp1250, which has */
  {
    static const char zW[] = "say\xC4\xB1lar\xC4\xB1n \xC3\xA7" "arpan";
    static const char zO[] = "say\xC4\xB1lar\xC4\xB1n \xC4\x86\xC2\xA7" "arpan";
    int bYes = utf8_sb_between_other((const unsigned char*)zO, strlen(zO),
                                     (const unsigned char*)zW, strlen(zW),
                                     UTF8_CS_WINDOWS_1257, UTF8_CS_WINDOWS_1252);
    int bNo = utf8_sb_between_other((const unsigned char*)zO, strlen(zO),
                                    (const unsigned char*)zW, strlen(zW),
                                    UTF8_CS_WINDOWS_1257, UTF8_CS_WINDOWS_1250);
    printf("between other: cp1252 %d, cp1250 %d\n", bYes, bNo);
    if( bYes==1 && bNo==0 ) nPass++; else nFail++;
  }

  /* 11. utf8_sb_between_edge(): characters left misread only at the
  ** value's start or end, none misread as letters that each have a case */
  {
    static const pair_case aEdge[] = {
      { "\xC3\x84\xE2\x80\x94 ra\xC5\xA1yti \xC4\xAF fail\xC4\x85", "\xC4\x97 ra\xC5\xA1yti \xC4\xAF fail\xC4\x85", UTF8_CS_WINDOWS_1250, 1 },  /* the first character left */
      { "ra\xC5\xA1yti \xC4\xAF fail\xC3\x84\xE2\x80\xA6", "ra\xC5\xA1yti \xC4\xAF fail\xC4\x85", UTF8_CS_WINDOWS_1250, 1 },  /* the last */
      { "ra\xC4\xB9\xCB\x87yti \xC4\xAF fail\xC4\x85", "ra\xC5\xA1yti \xC4\xAF fail\xC4\x85", UTF8_CS_WINDOWS_1250, 0 },  /* one inside */
      { "\xC4\x8E\xC5\xA0 \xCF\x84\xCE\xB9 caf\xC3\xA9", "\xCF\x8A \xCF\x84\xCE\xB9 caf\xC3\xA9", UTF8_CS_WINDOWS_1250, 0 },  /* misread as capitals */
      { "\xC3\x84\xE2\x80\x94 ra\xC5\xA1yti \xC4\xAF fail\xC4\x85", "\xC3\x84\xE2\x80\x94 ra\xC5\xA1yti \xC4\xAF fail\xC4\x85", UTF8_CS_WINDOWS_1250, 0 },  /* none left: the same text */
    };
    if( pair_cases("between edge", utf8_sb_between_edge, aEdge, COUNT(aEdge))==0 ) nPass++; else nFail++;
  }

  /* 12. utf8_sb_case_apart(): a letter of either case at one place, the
  ** one out of step with its neighbours no text */
  {
    static const struct { const char *a, *b; int want; } aCase[] = {
      { "K\xC3\xB6rper", "K\xC3\x9Crper", 1 },        /* Körper, KÜrper */
      { "H\xC3\xB6VELYEZ", "H\xC3\x9CVELYEZ", -1 },   /* HöVELYEZ, HÜVELYEZ */
      { "\xC3\xB6zerine", "\xC3\x9Czerine", 0 },      /* özerine, Üzerine */
      { "l\xC3\xA1", "l\xC3\xA5", 0 },                /* lá, lå: one case */
    };
    int i, nBad = 0;
    for(i=0; i<COUNT(aCase); i++){
      int got = utf8_sb_case_apart((const unsigned char*)aCase[i].a, strlen(aCase[i].a),
                                   (const unsigned char*)aCase[i].b, strlen(aCase[i].b));
      if( got!=aCase[i].want ){
        printf("case apart %d: got %d, want %d\n", i, got, aCase[i].want);
        nBad++;
      }
    }
    printf("case apart: %d cases, %d wrong\n", COUNT(aCase), nBad);
    if( nBad==0 ) nPass++; else nFail++;
  }

  /* 13. utf8_sb_misread_uncased(): a value all misread, each character
  ** of two bytes, none misread as cased letters, none after a capital */
  {
    static const pair_case aMisread[] = {
      { "\xC4\x86\xC2\xA9s una", "\xC3\xA9s una", UTF8_CS_WINDOWS_1257, 1 },  /* és una */
      { "upravlja\xC4\x8D\xC2\xB3\xC2\xB5", "upravlja\xE8\xB3\xB5", UTF8_CS_WINDOWS_1257, 0 },  /* one CJK character */
      { "un \xC4\x86\xC2\xA9 \xC3\xA9", "un \xC3\xA9 \xC3\xA9", UTF8_CS_WINDOWS_1257, 0 },  /* one é kept */
      { "LONCOVI\xC4\x86\xE2\x84\xA2", "LONCOVI\xC3\x99", UTF8_CS_WINDOWS_1257, 0 },  /* after a capital */
    };
    if( pair_cases("misread uncased", utf8_sb_misread_uncased, aMisread, COUNT(aMisread))==0 ) nPass++; else nFail++;
  }

  printf("reencode: %d passed, %d failed\n", nPass, nFail);
  return nFail!=0;
}
