/*
** core/impl.h - what one validator implementation provides, and the list
** the dispatcher (core/dispatch.c) chooses from. Internal to core/ and to
** the tests and benchmark, which run every implementation side by side.
**
** An implementation answers one question, exactly: the offset of the first
** ill-formed unit, or n when there is none. A SIMD implementation learns
** which byte is first found wrong; a look at most three bytes back from it
** (core/simd_kl.h) gives the scalar answer, at a cost that does not grow
** with the length of the value.
*/
#ifndef UTF8EXT_CORE_IMPL_H
#define UTF8EXT_CORE_IMPL_H

#include <stddef.h>

typedef size_t (*utf8_find_error_fn)(const unsigned char *s, size_t n);

/*
** The same offset, and in *chars the number of characters before it (the
** well-formed prefix's bytes that are not continuation bytes), found in
** the same pass.
*/
typedef size_t (*utf8_find_error_count_fn)(const unsigned char *s, size_t n,
                                           size_t *chars);

typedef struct utf8_impl {
  const char *name;           /* what utf8ext_impl() reports */
  int (*cpu_supports)(void);  /* 1 if this CPU can run it */
  utf8_find_error_fn find_error;
  utf8_find_error_count_fn find_error_count;
} utf8_impl;

/* The scalar reference: always built, runs everywhere. */
size_t utf8_find_error_scalar(const unsigned char *s, size_t n);
size_t utf8_find_error_count_scalar(const unsigned char *s, size_t n, size_t *chars);

/* The chosen implementation's find_error_count (core/dispatch.c). */
size_t utf8_find_error_count(const unsigned char *s, size_t n, size_t *chars);

/*
** Every implementation compiled into this build, best first, ending with
** the scalar one; *count receives how many. The dispatcher takes the
** first the CPU supports.
*/
const utf8_impl *const *utf8_impl_list(size_t *count);

/* The implementation called name, or NULL when there is none. */
const utf8_impl *utf8_impl_find(const char *name);

/*
** Each SIMD file's two functions by name, so that the dispatcher calls
** them directly (core/dispatch.c says why).
*/
#define UTF8_DECLARE_IMPL(x) \
  size_t utf8_find_error_##x(const unsigned char *s, size_t n); \
  size_t utf8_find_error_count_##x(const unsigned char *s, size_t n, size_t *chars);
#if defined(UTF8EXT_HAVE_X86)
UTF8_DECLARE_IMPL(avx512)
UTF8_DECLARE_IMPL(avx2)
UTF8_DECLARE_IMPL(sse4)
#endif
#if defined(UTF8EXT_HAVE_NEON)
UTF8_DECLARE_IMPL(neon)
#endif

#if defined(UTF8EXT_HAVE_X86)
/* core/cpu_x86.c: 1 when the CPU has the instructions and the OS saves
** the registers they use. */
int utf8_cpu_has_sse4(void);        /* SSSE3, SSE4.1, SSE4.2 */
int utf8_cpu_has_avx2(void);        /* AVX2, YMM state saved */
int utf8_cpu_has_avx512(void);      /* AVX-512 F+BW, ZMM and k state saved */
#endif

#endif /* UTF8EXT_CORE_IMPL_H */
