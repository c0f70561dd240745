/* Checked string and memory-search functions, linked into instrumented
 * programs. Each checks exactly the bytes the function reads or writes, as
 * the kernel's and AddressSanitizer's interceptors do, then calls glibc's. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>

#include "compare.h"
#include "fuzz_hooks.h"
#include "intercept.h"

REAL(size_t, strlen, const char *)
REAL(size_t, strnlen, const char *, size_t)
REAL(char *, strchr, const char *, int)
REAL(char *, strrchr, const char *, int)
REAL(char *, strchrnul, const char *, int)
REAL(void *, rawmemchr, const void *, int)
REAL(char *, strstr, const char *, const char *)
REAL(void *, memchr, const void *, int, size_t)
REAL(void *, memrchr, const void *, int, size_t)
REAL(int, memcmp, const void *, const void *, size_t)

static size_t min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

/* ASan's strict_string_checks: a string argument to its terminator (at
 * most max bytes), whatever the call read of it. */
static size_t string_len(const char *s, size_t read, size_t max)
{
	if (!__builtin_expect(__ukasan_strict_string_checks, 0))
		return read;
	return min_size(get_strnlen()(s, max) + 1, max);
}

size_t strlen(const char *s)
{
	size_t n = get_strlen()(s);
	CHECK_READ(s, n + 1);
	return n;
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = get_strnlen()(s, max);
	CHECK_READ(s, min_size(n + 1, max));
	return n;
}

/* The overlap checks take ASan's ranges: what is copied, and for the
 * appends the destination string with what is appended to it. */
char *strcpy(char *d, const char *s)
{
	size_t n = get_strlen()(s) + 1;
	CHECK_OVERLAP("strcpy", d, n, s, n);
	if (!CHECK_READ(s, n) || !CHECK_WRITE(d, n))
		return d;
	return libc_memcpy(d, s, n);
}

/* stpcpy and stpncpy return the end of what they wrote, even when the
 * call is skipped. */
char *stpcpy(char *d, const char *s)
{
	size_t n = get_strlen()(s) + 1;
	if (CHECK_READ(s, n) && CHECK_WRITE(d, n))
		libc_memcpy(d, s, n);
	return d + n - 1;
}

char *stpncpy(char *d, const char *s, size_t n)
{
	size_t len = get_strnlen()(s, n);
	if (!CHECK_READ(s, min_size(len + 1, n)) || !CHECK_WRITE(d, n))
		return d + len;
	libc_memcpy(d, s, len);
	libc_memset(d + len, 0, n - len);
	return d + len;
}

char *strncpy(char *d, const char *s, size_t n)
{
	size_t len = get_strnlen()(s, n);
	CHECK_OVERLAP("strncpy", d, min_size(len + 1, n), s, min_size(len + 1, n));
	if (!CHECK_READ(s, min_size(len + 1, n)) || !CHECK_WRITE(d, n))
		return d;
	libc_memcpy(d, s, len);
	if (len < n)
		libc_memset(d + len, 0, n - len);
	return d;
}

char *strcat(char *d, const char *s)
{
	size_t dl = get_strlen()(d), sl = get_strlen()(s);
	if (sl)
		CHECK_OVERLAP("strcat", d, dl + sl + 1, s, sl + 1);
	if (!CHECK_READ(d, dl + 1) || !CHECK_READ(s, sl + 1) || !CHECK_WRITE(d + dl, sl + 1))
		return d;
	libc_memcpy(d + dl, s, sl + 1);
	return d;
}

char *strncat(char *d, const char *s, size_t n)
{
	size_t dl = get_strlen()(d), sl = get_strnlen()(s, n);
	if (sl)
		CHECK_OVERLAP("strncat", d, dl + min_size(sl + 1, n) + 1, s, min_size(sl + 1, n));
	if (!CHECK_READ(d, dl + 1) || !CHECK_READ(s, min_size(sl + 1, n)) ||
	    !CHECK_WRITE(d + dl, sl + 1))
		return d;
	libc_memcpy(d + dl, s, sl);
	d[dl + sl] = 0;
	return d;
}

/* The comparisons read up to the first difference or terminator. */
int strcmp(const char *a, const char *b)
{
	struct cmp_scan s = cmp_scan(a, b, SIZE_MAX, 1, CMP_EXACT, 0);
	CHECK_READ(a, string_len(a, s.len, SIZE_MAX));
	CHECK_READ(b, string_len(b, s.len, SIZE_MAX));
	FUZZ_HOOK(strcmp, a, b, (int)(s.a - s.b));
	return (int)(s.a - s.b);
}

int strncmp(const char *a, const char *b, size_t n)
{
	struct cmp_scan s = cmp_scan(a, b, n, 1, CMP_EXACT, 0);
	CHECK_READ(a, string_len(a, s.len, n));
	CHECK_READ(b, string_len(b, s.len, n));
	FUZZ_HOOK(strncmp, a, b, n, (int)(s.a - s.b));
	return (int)(s.a - s.b);
}

char *strchr(const char *s, int c)
{
	char *r = get_strchr()(s, c);
	CHECK_READ(s, string_len(s, r ? (size_t)(r - s) + 1 : get_strlen()(s) + 1, SIZE_MAX));
	return r;
}

char *strrchr(const char *s, int c)
{
	CHECK_READ(s, get_strlen()(s) + 1);
	return get_strrchr()(s, c);
}

/* The old BSD names, which compilers turn into strchr and strrchr but
 * uninstrumented code may still call. */
char *index(const char *s, int c) __attribute__((alias("strchr")));
char *rindex(const char *s, int c) __attribute__((alias("strrchr")));

/* Up to and including the byte found: c, or the terminator. */
char *strchrnul(const char *s, int c)
{
	char *r = get_strchrnul()(s, c);
	CHECK_READ(s, string_len(s, (size_t)(r - s) + 1, SIZE_MAX));
	return r;
}

void *rawmemchr(const void *s, int c)
{
	void *r = get_rawmemchr()(s, c);
	CHECK_READ(s, (size_t)((const char *)r - (const char *)s) + 1);
	return r;
}

char *strstr(const char *h, const char *n)
{
	char *r = get_strstr()(h, n);
	size_t nl = get_strlen()(n);
	CHECK_READ(n, nl + 1);
	CHECK_READ(h, string_len(h, r ? (size_t)(r - h) + nl : get_strlen()(h) + 1, SIZE_MAX));
	FUZZ_HOOK(strstr, h, n, r);
	return r;
}

char *strdup(const char *s)
{
	size_t n = get_strlen()(s) + 1;
	CHECK_READ(s, n);
	char *p = malloc(n);
	return p ? libc_memcpy(p, s, n) : NULL;
}

char *strndup(const char *s, size_t max)
{
	size_t n = get_strnlen()(s, max);
	CHECK_READ(s, min_size(n + 1, max));
	char *p = malloc(n + 1);
	if (!p)
		return NULL;
	libc_memcpy(p, s, n);
	p[n] = 0;
	return p;
}

void *memchr(const void *s, int c, size_t n)
{
	void *r = get_memchr()(s, c, n);
	CHECK_READ(s, r ? (size_t)((const char *)r - (const char *)s) + 1 : n);
	return r;
}

void *memrchr(const void *s, int c, size_t n)
{
	CHECK_READ(s, n);
	return get_memrchr()(s, c, n);
}

/* Whole ranges, as the kernel's memcmp check (and ASan's strict_memcmp). */
int memcmp(const void *a, const void *b, size_t n)
{
	CHECK_READ(a, n);
	CHECK_READ(b, n);
	int r = get_memcmp()(a, b, n);
	FUZZ_HOOK(memcmp, a, b, n, r);
	return r;
}

/* Not through memcmp: the hook's pc would be bcmp's for every caller. */
int bcmp(const void *a, const void *b, size_t n)
{
	CHECK_READ(a, n);
	CHECK_READ(b, n);
	int r = get_memcmp()(a, b, n);
	FUZZ_HOOK(memcmp, a, b, n, r);
	return r;
}
