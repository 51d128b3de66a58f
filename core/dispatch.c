/*
** core/dispatch.c - choose the validator implementation once, at first
** use, and call it through one atomic pointer ever after.
**
** The choice is the first implementation in utf8_impl_list() that the CPU
** supports, or the one the environment variable UTF8EXT_IMPL names. A name
** this CPU cannot run (or that is not compiled in) falls back to the best
** supported one, and utf8_impl_name() says so.
*/
#include "utf8.h"
#include "impl.h"

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

static const utf8_impl impl_scalar = { "scalar", always, utf8_find_error_scalar };

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
** choosing) -> 2 (chosen); chosen_fn and chosen_name are written only by
** the thread that moved it to 1, and read only after seeing 2.
*/
static atomic_int state;
static _Atomic(utf8_find_error_fn) chosen_fn;
static char chosen_name[96];

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
      atomic_store_explicit(&chosen_fn, best->find_error, memory_order_release);
      return;
    }
  }
  snprintf(chosen_name, sizeof(chosen_name), "%s", best->name);
  atomic_store_explicit(&chosen_fn, best->find_error, memory_order_release);
}

static utf8_find_error_fn resolve(void){
  int expected = 0;
  if( atomic_compare_exchange_strong(&state, &expected, 1) ){
    choose();
    atomic_store_explicit(&state, 2, memory_order_release);
  }else{
    while( atomic_load_explicit(&state, memory_order_acquire)!=2 ){ /* spin */ }
  }
  return atomic_load_explicit(&chosen_fn, memory_order_acquire);
}

size_t utf8_find_error(const unsigned char *s, size_t n){
  utf8_find_error_fn fn = atomic_load_explicit(&chosen_fn, memory_order_acquire);
  if( !fn ) fn = resolve();
  return fn(s, n);
}

const char *utf8_impl_name(void){
  if( atomic_load_explicit(&state, memory_order_acquire)!=2 ) resolve();
  return chosen_name;
}
