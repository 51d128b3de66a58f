/*
** test/reencode_test.c - the CJK mojibake reading (core/reencode.h), on
** strings made from a fixed seed:
**
** 1. phrases of real words (below) in Chinese, Japanese, Korean, Russian
**    and German, their UTF-8 decoded strictly as each of gb18030,
**    shift_jis, big5 and euc-kr: every one that the decoder reads without
**    U+FFFD must come back exactly, named by its charset (but those whose
**    only CJK characters are halfwidth katakana, which are left alone);
** 2. the same phrases as they are: none changed; and their UTF-8 read
**    as IBM437 (utf8_sb_mojibake): every one must come back;
** 3. random well-formed text (CJK, kana, Hangul, Latin, Cyrillic,
**    fullwidth forms and ASCII mixed): whatever the reading does, a
**    result must be shorter, well-formed, and decode back to the input
**    with the charset named (so that undoing is exact); and the cheap
**    test must say "possible" for every value the reading changes.
**
** The last line is "reencode: N passed, N failed".
*/
#include "reencode.h"
#include "charsets.h"
#include "utf8.h"

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

int main(void){
  static unsigned char aOut[4096*4], aScratch[4096*4*2+4], aMoji[4096*4], aBack[4096*4];
  char zPhrase[1024];
  long nMoji = 0, nBack = 0, nWrong = 0, nClean = 0, nCleanChanged = 0, nHalf = 0;
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
      if( !utf8_cjk_mojibake_possible(aMoji, m) && !has_cjk_char(aMoji, m) ){
        /* halfwidth katakana alone (Latin or Cyrillic read as
        ** Shift_JIS): left alone by design, never read wrongly */
        nHalf++;
        if( cs>=0 ) nWrong++;
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
      if( utf8_sb_mojibake(aMoji, m, aOut, &len, aScratch)==UTF8_CS_IBM437
       && len==n && memcmp(aOut, zPhrase, n)==0 ){
        nDosBack++;
      }else if( nDos-nDosBack<=5 ){
        printf("not back (ibm437): %.*s\n", (int)n, zPhrase);
      }
    }
    printf("ibm437: %ld misread, %ld back exactly\n", nDos, nDosBack);
    if( nDos>1000 && nDosBack==nDos ) nPass++; else nFail++;
  }
  printf("phrases: %ld misread strictly, %ld back exactly (and %ld of halfwidth "
         "katakana alone, left alone); %ld clean, %ld changed\n",
         nMoji, nBack, nHalf, nClean, nCleanChanged);
  if( nMoji>1000 && nWrong==0 ) nPass++; else nFail++;
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

  printf("reencode: %d passed, %d failed\n", nPass, nFail);
  return nFail!=0;
}
