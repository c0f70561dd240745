/* Wide-character string and memory functions: as str.c, counted in
 * wchar_t, each checks exactly the bytes it reads or writes. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdlib.h>
#include <wchar.h>
#include <wctype.h>

#include "compare.h"
#include "intercept.h"

REAL(size_t, wcslen, const wchar_t *)
REAL(size_t, wcsnlen, const wchar_t *, size_t)
REAL(wchar_t *, wcschr, const wchar_t *, wchar_t)
REAL(wchar_t *, wcsrchr, const wchar_t *, wchar_t)
REAL(wchar_t *, wcschrnul, const wchar_t *, wchar_t)
REAL(int, wcscasecmp, const wchar_t *, const wchar_t *)
REAL(int, wcsncasecmp, const wchar_t *, const wchar_t *, size_t)
REAL(wchar_t *, wmemchr, const wchar_t *, wchar_t, size_t)
REAL(size_t, wcsspn, const wchar_t *, const wchar_t *)
REAL(size_t, wcscspn, const wchar_t *, const wchar_t *)
REAL(wchar_t *, wcspbrk, const wchar_t *, const wchar_t *)
REAL(wchar_t *, wcsstr, const wchar_t *, const wchar_t *)
REAL(size_t, wcsxfrm, wchar_t *, const wchar_t *, size_t)

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

/* wcpcpy, wcpncpy and wmempcpy return the end of what they wrote, even
 * when the call is skipped. */
wchar_t *wcpcpy(wchar_t *d, const wchar_t *s)
{
	size_t n = get_wcslen()(s) + 1;
	if (CHECK_READ(s, n * W) && CHECK_WRITE(d, n * W))
		libc_memcpy(d, s, n * W);
	return d + n - 1;
}

wchar_t *wcpncpy(wchar_t *d, const wchar_t *s, size_t n)
{
	size_t len = get_wcsnlen()(s, n);
	if (!CHECK_READ(s, min_size(len + 1, n) * W) || !CHECK_WRITE(d, n * W))
		return d + len;
	libc_memcpy(d, s, len * W);
	libc_memset(d + len, 0, (n - len) * W);
	return d + len;
}

wchar_t *wmempcpy(wchar_t *d, const wchar_t *s, size_t n)
{
	if (CHECK_READ(s, n * W) && CHECK_WRITE(d, n * W))
		libc_memcpy(d, s, n * W);
	return d + n;
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
	struct cmp_scan s = cmp_scan(a, b, SIZE_MAX, W, CMP_EXACT, 0);
	CHECK_READ(a, s.len * W);
	CHECK_READ(b, s.len * W);
	return s.a < s.b ? -1 : s.a > s.b;
}

int wcsncmp(const wchar_t *a, const wchar_t *b, size_t n)
{
	struct cmp_scan s = cmp_scan(a, b, n, W, CMP_EXACT, 0);
	CHECK_READ(a, s.len * W);
	CHECK_READ(b, s.len * W);
	return s.a < s.b ? -1 : s.a > s.b;
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

wchar_t *wcschrnul(const wchar_t *s, wchar_t c)
{
	wchar_t *r = get_wcschrnul()(s, c);
	CHECK_READ(s, ((size_t)(r - s) + 1) * W);
	return r;
}

/* As strcasecmp: up to the first difference in the locale's case mapping,
 * or the terminator; the result is glibc's. */
int wcscasecmp(const wchar_t *a, const wchar_t *b)
{
	size_t len = cmp_scan(a, b, SIZE_MAX, W, CMP_CASE, 0).len;
	CHECK_READ(a, len * W);
	CHECK_READ(b, len * W);
	return get_wcscasecmp()(a, b);
}

int wcsncasecmp(const wchar_t *a, const wchar_t *b, size_t n)
{
	size_t len = cmp_scan(a, b, n, W, CMP_CASE, 0).len;
	CHECK_READ(a, len * W);
	CHECK_READ(b, len * W);
	return get_wcsncasecmp()(a, b, n);
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

/* As strspn, strcspn, strpbrk and strstr: all of the set (the needle), and
 * the string up to where the search stopped. */
size_t wcsspn(const wchar_t *s, const wchar_t *accept)
{
	size_t r = get_wcsspn()(s, accept);
	CHECK_READ(accept, (get_wcslen()(accept) + 1) * W);
	CHECK_READ(s, (r + 1) * W);
	return r;
}

size_t wcscspn(const wchar_t *s, const wchar_t *reject)
{
	size_t r = get_wcscspn()(s, reject);
	CHECK_READ(reject, (get_wcslen()(reject) + 1) * W);
	CHECK_READ(s, (r + 1) * W);
	return r;
}

wchar_t *wcspbrk(const wchar_t *s, const wchar_t *accept)
{
	wchar_t *r = get_wcspbrk()(s, accept);
	CHECK_READ(accept, (get_wcslen()(accept) + 1) * W);
	CHECK_READ(s, (r ? (size_t)(r - s) + 1 : get_wcslen()(s) + 1) * W);
	return r;
}

wchar_t *wcsstr(const wchar_t *h, const wchar_t *n)
{
	wchar_t *r = get_wcsstr()(h, n);
	size_t nl = get_wcslen()(n);
	CHECK_READ(n, (nl + 1) * W);
	CHECK_READ(h, (r ? (size_t)(r - h) + nl : get_wcslen()(h) + 1) * W);
	return r;
}

wchar_t *wcswcs(const wchar_t *h, const wchar_t *n) __attribute__((alias("wcsstr")));

/* glibc's wcstok step for step, as strtok_r in strscan.c (unlike strtok_r
 * it leaves NULL in *save at the end of the string, and fails with EINVAL
 * when *save is NULL). */
wchar_t *wcstok(wchar_t *s, const wchar_t *delim, wchar_t **save)
{
	if (!s) {
		if (!CHECK_READ(save, sizeof(*save)))
			return NULL;
		s = *save;
		if (!s) {
			errno = EINVAL;
			return NULL;
		}
	}
	size_t dl = get_wcslen()(delim);
	wchar_t *tok = s + get_wcsspn()(s, delim);
	wchar_t *end = *tok ? tok + get_wcscspn()(tok, delim) : tok;
	int read_ok = CHECK_READ(delim, (dl + 1) * W) && CHECK_READ(s, ((size_t)(end - s) + 1) * W);
	wchar_t *next = *end ? end + 1 : NULL;
	if (*end && read_ok)
		*end = 0;
	if (CHECK_WRITE(save, sizeof(*save)))
		*save = next;
	return *tok ? tok : NULL;
}

/* As strxfrm: the whole source, and min(length + 1, n) wchar_t written. */
size_t wcsxfrm(wchar_t *d, const wchar_t *s, size_t n)
{
	size_t need = get_wcsxfrm()(NULL, s, 0);
	if (!CHECK_READ(s, (get_wcslen()(s) + 1) * W) ||
	    (n && !CHECK_WRITE(d, min_size(need + 1, n) * W)))
		return need;
	return get_wcsxfrm()(d, s, n);
}
