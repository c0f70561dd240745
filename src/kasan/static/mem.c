/* Checked memcpy, memmove and memset, linked into instrumented programs.
 * GCC 12 leaves these as plain calls, so the checks must sit behind the
 * names themselves. They are in the program rather than in libukasan.so so
 * that KFENCE-only programs pay nothing for them. */
#include <stddef.h>
#include <stdint.h>

#include "intercept.h"

void *memcpy(void *d, const void *s, size_t n)
{
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
