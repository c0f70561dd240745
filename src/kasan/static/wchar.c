/* Wide-character string and memory functions: as str.c, counted in
 * wchar_t, each checks exactly the bytes it reads or writes. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <wchar.h>

#include "intercept.h"

REAL(size_t, wcslen, const wchar_t *)
REAL(size_t, wcsnlen, const wchar_t *, size_t)
REAL(wchar_t *, wcschr, const wchar_t *, wchar_t)
REAL(wchar_t *, wcsrchr, const wchar_t *, wchar_t)
REAL(wchar_t *, wmemchr, const wchar_t *, wchar_t, size_t)

#define W sizeof(wchar_t)

static size_t min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

size_t wcslen(const wchar_t *s)
{
	size_t n = get_wcslen()(s);
	CHECK_READ(s, (n + 1) * W);
	return n;
}

size_t wcsnlen(const wchar_t *s, size_t max)
{
	size_t n = get_wcsnlen()(s, max);
	CHECK_READ(s, min_size(n + 1, max) * W);
	return n;
}

wchar_t *wcscpy(wchar_t *d, const wchar_t *s)
{
	size_t n = (get_wcslen()(s) + 1) * W;
	if (!CHECK_READ(s, n) || !CHECK_WRITE(d, n))
		return d;
	libc_memcpy(d, s, n);
	return d;
}

wchar_t *wcsncpy(wchar_t *d, const wchar_t *s, size_t n)
{
	size_t len = get_wcsnlen()(s, n);
	if (!CHECK_READ(s, min_size(len + 1, n) * W) || !CHECK_WRITE(d, n * W))
		return d;
	libc_memcpy(d, s, len * W);
	if (len < n)
		libc_memset(d + len, 0, (n - len) * W);
	return d;
}

wchar_t *wcscat(wchar_t *d, const wchar_t *s)
{
	size_t dl = get_wcslen()(d), sl = get_wcslen()(s);
	if (!CHECK_READ(d, (dl + 1) * W) || !CHECK_READ(s, (sl + 1) * W) ||
	    !CHECK_WRITE(d + dl, (sl + 1) * W))
		return d;
	libc_memcpy(d + dl, s, (sl + 1) * W);
	return d;
}

wchar_t *wcsncat(wchar_t *d, const wchar_t *s, size_t n)
{
	size_t dl = get_wcslen()(d), sl = get_wcsnlen()(s, n);
	if (!CHECK_READ(d, (dl + 1) * W) || !CHECK_READ(s, min_size(sl + 1, n) * W) ||
	    !CHECK_WRITE(d + dl, (sl + 1) * W))
		return d;
	libc_memcpy(d + dl, s, sl * W);
	d[dl + sl] = 0;
	return d;
}

wchar_t *wmemcpy(wchar_t *d, const wchar_t *s, size_t n)
{
	if (!CHECK_READ(s, n * W) || !CHECK_WRITE(d, n * W))
		return d;
	libc_memcpy(d, s, n * W);
	return d;
}

wchar_t *wmemmove(wchar_t *d, const wchar_t *s, size_t n)
{
	if (!CHECK_READ(s, n * W) || !CHECK_WRITE(d, n * W))
		return d;
	libc_memmove(d, s, n * W);
	return d;
}

wchar_t *wmemset(wchar_t *d, wchar_t c, size_t n)
{
	if (!CHECK_WRITE(d, n * W))
		return d;
	for (size_t i = 0; i < n; i++)
		d[i] = c;
	return d;
}

/* As strcmp: up to the first difference or terminator. */
int wcscmp(const wchar_t *a, const wchar_t *b)
{
	size_t i = 0;
	wchar_t ca, cb;
	do {
		ca = a[i];
		cb = b[i];
		i++;
	} while (ca && ca == cb);
	CHECK_READ(a, i * W);
	CHECK_READ(b, i * W);
	return ca < cb ? -1 : ca > cb;
}

int wcsncmp(const wchar_t *a, const wchar_t *b, size_t n)
{
	size_t i = 0;
	wchar_t ca = 0, cb = 0;
	while (i < n) {
		ca = a[i];
		cb = b[i];
		i++;
		if (!ca || ca != cb)
			break;
	}
	CHECK_READ(a, i * W);
	CHECK_READ(b, i * W);
	return ca < cb ? -1 : ca > cb;
}

wchar_t *wcschr(const wchar_t *s, wchar_t c)
{
	wchar_t *r = get_wcschr()(s, c);
	CHECK_READ(s, (r ? (size_t)(r - s) + 1 : get_wcslen()(s) + 1) * W);
	return r;
}

wchar_t *wcsrchr(const wchar_t *s, wchar_t c)
{
	CHECK_READ(s, (get_wcslen()(s) + 1) * W);
	return get_wcsrchr()(s, c);
}

wchar_t *wmemchr(const wchar_t *s, wchar_t c, size_t n)
{
	wchar_t *r = get_wmemchr()(s, c, n);
	CHECK_READ(s, (r ? (size_t)(r - s) + 1 : n) * W);
	return r;
}

/* Whole ranges, as memcmp. */
int wmemcmp(const wchar_t *a, const wchar_t *b, size_t n)
{
	CHECK_READ(a, n * W);
	CHECK_READ(b, n * W);
	for (size_t i = 0; i < n; i++)
		if (a[i] != b[i])
			return a[i] < b[i] ? -1 : 1;
	return 0;
}

wchar_t *wcsdup(const wchar_t *s)
{
	size_t n = (get_wcslen()(s) + 1) * W;
	CHECK_READ(s, n);
	wchar_t *p = malloc(n);
	return p ? libc_memcpy(p, s, n) : NULL;
}
