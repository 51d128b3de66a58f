/*
** test/testutil.h - small helpers the C tests share: hex in and out for
** printing and writing test vectors, and a growable text buffer kept with
** the C library's allocator (so that a test which makes SQLite's
** allocations fail does not fail its own).
*/
#ifndef UTF8EXT_TEST_TESTUTIL_H
#define UTF8EXT_TEST_TESTUTIL_H

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>

/* Print s[0..n) as hex into buf (at least 2n+1 bytes). */
static inline const char *hex(const unsigned char *s, size_t n, char *buf){
  static const char digits[] = "0123456789ABCDEF";
  size_t i;
  for(i=0; i<n; i++){
    buf[2*i] = digits[s[i]>>4];
    buf[2*i+1] = digits[s[i]&15];
  }
  buf[2*n] = 0;
  return buf;
}

/* Parse hex text (spaces allowed) into out; returns the byte count. */
static inline size_t unhex(const char *z, unsigned char *out){
  size_t n = 0;
  while( z[0] && z[1] ){
    unsigned hi, lo;
    if( z[0]==' ' ){ z++; continue; }
    hi = z[0]<='9' ? z[0]-'0' : (z[0]|0x20)-'a'+10;
    lo = z[1]<='9' ? z[1]-'0' : (z[1]|0x20)-'a'+10;
    out[n++] = (unsigned char)(hi*16+lo);
    z += 2;
  }
  return n;
}

/* A growable text buffer (C library allocator). */
typedef struct out_buf { char *z; size_t n, cap; } out_buf;

/* Append printf-style text to p; a test that cannot allocate stops. */
static inline void out_appendf(out_buf *p, const char *zFormat, ...){
  va_list ap;
  int k;
  va_start(ap, zFormat);
  k = vsnprintf(0, 0, zFormat, ap);
  va_end(ap);
  if( p->n + (size_t)k + 1 > p->cap ){
    p->cap = 2*(p->n + (size_t)k + 1);
    p->z = realloc(p->z, p->cap);
    if( p->z==0 ) abort();
  }
  va_start(ap, zFormat);
  vsnprintf(p->z + p->n, (size_t)k + 1, zFormat, ap);
  va_end(ap);
  p->n += (size_t)k;
}

#endif /* UTF8EXT_TEST_TESTUTIL_H */
