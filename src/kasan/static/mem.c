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
	return __memcpy_chk(d, s, n, (size_t)-1);
}

void *memmove(void *d, const void *s, size_t n)
{
	if (!CHECK_READ(s, n) || !CHECK_WRITE(d, n))
		return d;
	return __memmove_chk(d, s, n, (size_t)-1);
}

void *memset(void *d, int c, size_t n)
{
	if (!CHECK_WRITE(d, n))
		return d;
	return __memset_chk(d, c, n, (size_t)-1);
}
