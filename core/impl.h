/*
** core/impl.h - what one validator implementation provides, and the list
** the dispatcher (core/dispatch.c) chooses from. Internal to core/ and to
** the tests and benchmark, which run every implementation side by side.
**
** An implementation answers one question, exactly: the offset of the first
** ill-formed unit, or n when there is none. A SIMD implementation only
** learns that some block is bad; it then restarts the scalar core just
** before that block (utf8_find_error_from), so its answer is the scalar
** answer, found in time proportional to the distance to the error.
*/
#ifndef UTF8EXT_CORE_IMPL_H
#define UTF8EXT_CORE_IMPL_H

#include <stddef.h>

typedef size_t (*utf8_find_error_fn)(const unsigned char *s, size_t n);

typedef struct utf8_impl {
  const char *name;           /* what utf8ext_impl() reports */
  int (*cpu_supports)(void);  /* 1 if this CPU can run it */
  utf8_find_error_fn find_error;
} utf8_impl;

/* The scalar reference: always built, runs everywhere. */
size_t utf8_find_error_scalar(const unsigned char *s, size_t n);

/*
** The scalar core restarted at s[from], where from is at most n and the
** bytes before the last 3 of s[0..from) are known to be well-formed and to
** end on a character boundary (what a SIMD path knows of the blocks it has
** passed). It backs up to the character boundary at or before from and
** continues from there.
*/
size_t utf8_find_error_from(const unsigned char *s, size_t n, size_t from);

/*
** Every implementation compiled into this build, best first, ending with
** the scalar one; *count receives how many. The dispatcher takes the
** first the CPU supports.
*/
const utf8_impl *const *utf8_impl_list(size_t *count);

/* The implementation called name, or NULL when there is none. */
const utf8_impl *utf8_impl_find(const char *name);

#endif /* UTF8EXT_CORE_IMPL_H */
