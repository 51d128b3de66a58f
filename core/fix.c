/*
** core/fix.c - repair: copy the well-formed stretches (found with the
** fastest validator) and write a replacement for the ill-formed units
** between them, one per unit, per run of units or per byte.
**
** With a replacement of 3 bytes or more and a rule other than 'run' (the
** default U+FFFD, and utf8_repair), the chosen SIMD implementation
** repairs inside its own loop (core/simd_kl.h, kl_fix): the same bytes,
** at less than half the cost per error. This loop does the rest: shorter
** replacements, the 'run' rule, and machines without a vector path.
*/
#include "utf8.h"
#include "impl.h"

#include <string.h>

/* Append s[0..n) at out+*o (when out is not NULL) and advance *o. */
static void emit(unsigned char *out, size_t *o, const unsigned char *s, size_t n){
  if( out && n ) memcpy(out+*o, s, n);
  *o = utf8_add_sat(*o, n);
}

size_t utf8_fix(const unsigned char *s, size_t n,
                const unsigned char *r, size_t rlen,
                utf8_fix_rule rule, unsigned char *out){
  size_t i = 0, o = 0;
  if( rlen>=3 && rule!=UTF8_FIX_RUN
   && utf8_fix_vector(s, n, r, rlen, rule==UTF8_FIX_BYTE, out, &o) ){
    return o;
  }
  while( i<n ){
    size_t k = utf8_find_error(s+i, n-i);
    int first = 1;
    emit(out, &o, s+i, k);
    i += k;
    /* A run of adjacent ill-formed units. */
    while( i<n ){
      utf8_unit u = utf8_decode_unit(s+i, n-i);
      size_t reps;
      if( u.reason==UTF8_OK ) break;
      switch( rule ){
        case UTF8_FIX_BYTE: reps = u.length; break;
        case UTF8_FIX_RUN:  reps = first; break;
        default:            reps = 1; break;
      }
      while( reps-- ) emit(out, &o, r, rlen);
      i += u.length;
      first = 0;
    }
  }
  return o;
}
