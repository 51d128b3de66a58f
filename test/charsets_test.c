/*
** test/charsets_test.c - the decoding half of the charsets suite: read
** records from stdin, decode each with core/charsets.c, write the result.
** test/charsets_check.py makes the inputs, runs this and compares every
** output with an independent decoder (Python's codecs, glibc iconv).
**
** A record in: one byte mode (0 decode, 1 recode), one byte charset (enum
** utf8_charset), two bytes length (little-endian), the bytes. Out: four
** bytes length (little-endian), the UTF-8. The measuring pass (out NULL)
** is checked against the writing pass on every record: a mismatch exits 2.
** "names" as the only argument lists the canonical names, one per line.
*/
#include "charsets.h"

#include <stdio.h>
#include <string.h>

int main(int argc, char **argv){
  unsigned char hdr[4], in[65536], out[4*65536+8];
  if( argc>1 && strcmp(argv[1], "names")==0 ){
    int cs;
    for(cs=0; cs<UTF8_CS_COUNT; cs++) printf("%s\n", utf8_charset_name((utf8_charset)cs));
    return 0;
  }
  while( fread(hdr, 1, 4, stdin)==4 ){
    size_t n = hdr[2] | (size_t)hdr[3]<<8, len, want;
    utf8_charset cs = (utf8_charset)hdr[1];
    if( fread(in, 1, n, stdin)!=n ) return 3;
    if( hdr[0]==0 ){
      want = utf8_charset_decode(in, n, cs, 0);
      len = utf8_charset_decode(in, n, cs, out);
    }else{
      want = utf8_charset_recode(in, n, cs, 0);
      len = utf8_charset_recode(in, n, cs, out);
    }
    if( len!=want ){
      fprintf(stderr, "charsets_test: measured %zu, wrote %zu\n", want, len);
      return 2;
    }
    hdr[0] = (unsigned char)len; hdr[1] = (unsigned char)(len>>8);
    hdr[2] = (unsigned char)(len>>16); hdr[3] = (unsigned char)(len>>24);
    fwrite(hdr, 1, 4, stdout);
    fwrite(out, 1, len, stdout);
  }
  return 0;
}
