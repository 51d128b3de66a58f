/*
** core/dispatch.c - choose the validator implementation once, at first
** use, and call it directly ever after (a switch on the choice, below).
**
** The choice is the first implementation in utf8_impl_list() that the CPU
** supports, or the one the environment variable UTF8EXT_IMPL names. A name
** this CPU cannot run (or that is not compiled in) falls back to the best
** supported one, and utf8_impl_name() says so.
*/
#include "utf8.h"
#include "impl.h"
#include "mojibake.h"

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#if defined(UTF8EXT_HAVE_X86)
extern const utf8_impl utf8_impl_avx512, utf8_impl_avx2, utf8_impl_sse4;
#endif
#if defined(UTF8EXT_HAVE_NEON)
extern const utf8_impl utf8_impl_neon;
#endif

static int always(void){ return 1; }

static const utf8_impl impl_scalar = {
  "scalar", always, utf8_find_error_scalar, utf8_find_error_count_scalar, 0
};

/* Best first; the scalar reference last, as the one that always runs. */
static const utf8_impl *const impls[] = {
#if defined(UTF8EXT_HAVE_X86)
  &utf8_impl_avx512, &utf8_impl_avx2, &utf8_impl_sse4,
#endif
#if defined(UTF8EXT_HAVE_NEON)
  &utf8_impl_neon,
#endif
  &impl_scalar,
};
#define N_IMPLS (sizeof(impls)/sizeof(impls[0]))

const utf8_impl *const *utf8_impl_list(size_t *count){
  *count = N_IMPLS;
  return impls;
}

const utf8_impl *utf8_impl_find(const char *name){
  size_t i;
  for(i=0; i<N_IMPLS; i++){
    if( strcmp(impls[i]->name, name)==0 ) return impls[i];
  }
  return 0;
}

/*
** The choice, published once. state goes 0 (not chosen) -> 1 (a thread is
** choosing) -> 2 (chosen); chosen and chosen_name are written only by
** the thread that moved it to 1, and read only after seeing 2.
**
** The entry points do not call through a function pointer: they switch on
** chosen_id, a small number, and each case is a direct (tail) call that
** the compiler and the CPU see plainly. A pointer load and an indirect call
** cost more than the whole check of a 64-byte string; a predictable
** compare and a direct jump cost about nothing. chosen_id is 0 until the
** choice is made; it alone names the function, so a relaxed load of it
** is enough (nothing else needs to be seen with it).
*/
enum {
  ID_UNSET = 0, ID_SCALAR, ID_SSE4, ID_AVX2, ID_AVX512, ID_NEON
};
static atomic_int state;
static atomic_int chosen_id;
static char chosen_name[96];

static int id_of(const utf8_impl *impl){
#if defined(UTF8EXT_HAVE_X86)
  if( impl==&utf8_impl_avx512 ) return ID_AVX512;
  if( impl==&utf8_impl_avx2 ) return ID_AVX2;
  if( impl==&utf8_impl_sse4 ) return ID_SSE4;
#endif
#if defined(UTF8EXT_HAVE_NEON)
  if( impl==&utf8_impl_neon ) return ID_NEON;
#endif
  return ID_SCALAR;
}

static void choose(void){
  const utf8_impl *best = 0;
  const char *env = getenv("UTF8EXT_IMPL");
  size_t i;
  for(i=0; i<N_IMPLS && !best; i++){
    if( impls[i]->cpu_supports() ) best = impls[i];
  }
  if( env && env[0] ){
    const utf8_impl *want = utf8_impl_find(env);
    if( want && want->cpu_supports() ){
      best = want;
    }else{
      snprintf(chosen_name, sizeof(chosen_name),
               "%s (UTF8EXT_IMPL=%.40s is not supported here)", best->name, env);
      atomic_store_explicit(&chosen_id, id_of(best), memory_order_release);
      return;
    }
  }
  snprintf(chosen_name, sizeof(chosen_name), "%s", best->name);
  atomic_store_explicit(&chosen_id, id_of(best), memory_order_release);
}

/* Not inlined: the entry points keep only the hot switch. */
static __attribute__((noinline,cold)) int resolve(void){
  int expected = 0;
  if( atomic_compare_exchange_strong(&state, &expected, 1) ){
    choose();
    atomic_store_explicit(&state, 2, memory_order_release);
  }else{
    while( atomic_load_explicit(&state, memory_order_acquire)!=2 ){ /* spin */ }
  }
  return atomic_load_explicit(&chosen_id, memory_order_acquire);
}

static inline int current_id(void){
  int id = atomic_load_explicit(&chosen_id, memory_order_relaxed);
  return __builtin_expect(id!=ID_UNSET, 1) ? id : resolve();
}

size_t utf8_find_error(const unsigned char *s, size_t n){
  switch( current_id() ){
#if defined(UTF8EXT_HAVE_X86)
    case ID_AVX512: return utf8_find_error_avx512(s, n);
    case ID_AVX2:   return utf8_find_error_avx2(s, n);
    case ID_SSE4:   return utf8_find_error_sse4(s, n);
#endif
#if defined(UTF8EXT_HAVE_NEON)
    case ID_NEON:   return utf8_find_error_neon(s, n);
#endif
    default:        return utf8_find_error_scalar(s, n);
  }
}

size_t utf8_find_error_count(const unsigned char *s, size_t n, size_t *chars){
  switch( current_id() ){
#if defined(UTF8EXT_HAVE_X86)
    case ID_AVX512: return utf8_find_error_count_avx512(s, n, chars);
    case ID_AVX2:   return utf8_find_error_count_avx2(s, n, chars);
    case ID_SSE4:   return utf8_find_error_count_sse4(s, n, chars);
#endif
#if defined(UTF8EXT_HAVE_NEON)
    case ID_NEON:   return utf8_find_error_count_neon(s, n, chars);
#endif
    default:        return utf8_find_error_count_scalar(s, n, chars);
  }
}

int utf8_fix_vector(const unsigned char *s, size_t n, const unsigned char *r,
                    size_t rlen, int per_byte, unsigned char *out, size_t *len){
  switch( current_id() ){
#if defined(UTF8EXT_HAVE_X86)
    case ID_AVX512: *len = utf8_fix_avx512(s, n, r, rlen, per_byte, out); return 1;
    case ID_AVX2:   *len = utf8_fix_avx2(s, n, r, rlen, per_byte, out); return 1;
    case ID_SSE4:   *len = utf8_fix_sse4(s, n, r, rlen, per_byte, out); return 1;
#endif
#if defined(UTF8EXT_HAVE_NEON)
    case ID_NEON:   *len = utf8_fix_neon(s, n, r, rlen, per_byte, out); return 1;
#endif
    default:        return 0;
  }
}

const char *utf8_impl_name(void){
  if( atomic_load_explicit(&state, memory_order_acquire)!=2 ) resolve();
  return chosen_name;
}

/*
** utf8_moji_possible()'s block scan (core/mojiscan.h): the AVX-512 or AVX2
** copy where the chosen validator is that one (the same CPU check passed),
** the baseline copy elsewhere.
*/
size_t utf8_moji_scan(const unsigned char *s, size_t n){
  switch( current_id() ){
#if defined(UTF8EXT_HAVE_X86)
    case ID_AVX512: return utf8_moji_scan_avx512(s, n);
    case ID_AVX2:   return utf8_moji_scan_avx2(s, n);
#endif
    default:        return utf8_moji_scan_generic(s, n);
  }
}
