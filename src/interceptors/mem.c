/* Checked memcpy, memmove and memset (and mempcpy, memccpy, bcopy, bzero,
 * explicit_bzero), linked into instrumented programs.
 * GCC 12 leaves these as plain calls, so the checks must sit behind the
 * names themselves. They are in the program rather than in libukasan.so so
 * that KFENCE-only programs pay nothing for them. */
#include <stddef.h>
#include <stdint.h>

#include "intercept.h"

/* A copy onto itself is left alone, as ASan leaves it: compilers make
 * one of a struct assigned to itself. */
void *memcpy(void *d, const void *s, size_t n)
{
	if (d != s)
		CHECK_OVERLAP("memcpy", d, n, s, n);
	if (!CHECK_READ(s, n) || !CHECK_WRITE(d, n))
		return d;
	return libc_memcpy(d, s, n);
}

void *memmove(void *d, const void *s, size_t n)
{
	if (!CHECK_READ(s, n) || !CHECK_WRITE(d, n))
		return d;
	return libc_memmove(d, s, n);
}

void *memset(void *d, int c, size_t n)
{
	if (!CHECK_WRITE(d, n))
		return d;
	return libc_memset(d, c, n);
}

void *mempcpy(void *d, const void *s, size_t n)
{
	if (CHECK_READ(s, n) && CHECK_WRITE(d, n))
		libc_memcpy(d, s, n);
	return (char *)d + n;
}

REAL(void *, memchr, const void *, int, size_t)

/* Up to and including the first c, or n bytes. */
void *memccpy(void *d, const void *s, int c, size_t n)
{
	const char *hit = get_memchr()(s, c, n);
	size_t k = hit ? (size_t)(hit - (const char *)s) + 1 : n;
	if (CHECK_READ(s, k) && CHECK_WRITE(d, k))
		libc_memmove(d, s, k);
	return hit ? (char *)d + k : NULL;
}

void bcopy(const void *s, void *d, size_t n)
{
	if (CHECK_READ(s, n) && CHECK_WRITE(d, n))
		libc_memmove(d, s, n);
}

void bzero(void *d, size_t n)
{
	if (CHECK_WRITE(d, n))
		libc_memset(d, 0, n);
}

REAL(void, explicit_bzero, void *, size_t)

/* glibc's, whose stores the compiler cannot drop. */
void explicit_bzero(void *d, size_t n)
{
	if (CHECK_WRITE(d, n))
		get_explicit_bzero()(d, n);
}
