/* rt_mem (base/compiler.h): the functions the runtime's own copies and
 * fills call. Plain loops until the runtime's start binds them
 * (runtime/init.c): an instrumented program's fortified interposers, which
 * pass the runtime's calls on unchecked, or else glibc's memcpy, memmove
 * and memset. No other dependency: tests that build parts of the runtime
 * link this file. */
#include "../base/compiler.h"

/* The empty asm keeps the compiler from making these loops the calls they
 * stand in for, which would bind to the program's checking ones. */
static void *copy_early(void *d, const void *s, size_t n, size_t dlen)
{
	(void)dlen;
	unsigned char *o = d;
	const unsigned char *i = s;
	for (size_t k = 0; k < n; k++) {
		__asm__("" : "+r"(o));
		o[k] = i[k];
	}
	return d;
}

static void *move_early(void *d, const void *s, size_t n, size_t dlen)
{
	(void)dlen;
	unsigned char *o = d;
	const unsigned char *i = s;
	if (o <= i || o >= i + n)
		return copy_early(d, s, n, dlen);
	for (size_t k = n; k--;) {
		__asm__("" : "+r"(o));
		o[k] = i[k];
	}
	return d;
}

static void *set_early(void *d, int c, size_t n, size_t dlen)
{
	(void)dlen;
	unsigned char *o = d;
	for (size_t k = 0; k < n; k++) {
		__asm__("" : "+r"(o));
		o[k] = (unsigned char)c;
	}
	return d;
}

struct rt_mem rt_mem = {copy_early, move_early, set_early};
