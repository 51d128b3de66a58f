/*
** bench/naive.h - the benchmark's baseline: RFC 3629's decoding procedure
** transcribed as plainly as it reads, one character at a time.
*/
#ifndef UTF8EXT_BENCH_NAIVE_H
#define UTF8EXT_BENCH_NAIVE_H

#include <stddef.h>

/* Offset of the first character that does not decode, or n. */
size_t naive_find_error(const unsigned char *s, size_t n);

#endif
