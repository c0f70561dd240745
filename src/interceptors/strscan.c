/* Checked tokenizers, spans, searches, case-blind comparisons and strxfrm,
 * linked into instrumented programs: as str.c, each checks the bytes the
 * function reads or writes. The ones that only read check after glibc's
 * call, from where it stopped (as AddressSanitizer does); the ones that
 * write check first and, when a range is bad, return their usual value
 * without writing. */
#define _GNU_SOURCE
#include <ctype.h>
#include <stddef.h>
#include <stdint.h>

#include "compare.h"
#include "fuzz_hooks.h"
#include "intercept.h"

REAL(size_t, strlen, const char *)
REAL(size_t, strspn, const char *, const char *)
REAL(size_t, strcspn, const char *, const char *)
REAL(char *, strpbrk, const char *, const char *)
REAL(void *, memmem, const void *, size_t, const void *, size_t)
REAL(char *, strcasestr, const char *, const char *)
REAL(int, strcasecmp, const char *, const char *)
REAL(int, strncasecmp, const char *, const char *, size_t)
REAL(size_t, strxfrm, char *, const char *, size_t)

static int check(const void *p, size_t n, int write, uintptr_t ip)
{
	return __ukasan_check_range((uintptr_t)p, n, write, ip);
}

static size_t min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

/* ASan's strict_string_checks: a string argument to its terminator (at
 * most max bytes), however far the call read it. */
static size_t strict_len(const char *s, size_t read, size_t max)
{
	if (!__builtin_expect(__ukasan_strict_string_checks, 0))
		return read;
	size_t n = 0;
	while (n < max && s[n])
		n++;
	return min_size(n + 1, max);
}

/* glibc's strtok_r, step for step, so that what it reads (the saved
 * pointer, the delimiters, the string up to the end of the token) is checked
 * before it writes (the token's terminator, the saved pointer). The
 * delimiters are not read when the string is already at its end. A token
 * read past its object is left unterminated, but the saved pointer still
 * moves past it, as glibc's would: a loop over the tokens must end. strtok
 * keeps its own pointer, as glibc's does. */
static char *tokenize(char *s, const char *delim, char **save, int own_save, uintptr_t ip)
{
	int first = s != NULL;
	if (!s) {
		if (!own_save && !check(save, sizeof(*save), 0, ip))
			return NULL;
		s = *save;
	}
	char *tok = s, *end = s;
	int read_ok = 1;
	if (*s) {
		size_t dl = get_strlen()(delim);
		tok = s + get_strspn()(s, delim);
		end = *tok ? tok + get_strcspn()(tok, delim) : tok;
		read_ok = check(delim, dl + 1, 0, ip);
	}
	/* Under strict checks a first call reads the string whole (as
	 * ASan's: glibc keeps it for the calls after). */
	size_t read = (size_t)(end - s) + 1;
	read_ok = read_ok && check(s, first ? strict_len(s, read, SIZE_MAX) : read, 0, ip);
	char *next = *end ? end + 1 : end;
	if (*end && read_ok)
		*end = 0;
	if (own_save || check(save, sizeof(*save), 1, ip))
		*save = next;
	return *tok ? tok : NULL;
}

char *strtok_r(char *s, const char *delim, char **save)
{
	return tokenize(s, delim, save, 0, RET_IP);
}

char *__strtok_r(char *s, const char *delim, char **save) __attribute__((alias("strtok_r")));

char *strtok(char *s, const char *delim)
{
	static char *save;
	return tokenize(s, delim, &save, 1, RET_IP);
}

/* As glibc's: the token ends at the first delimiter, which becomes its
 * terminator; *sp moves past it, or to NULL at the end of the string. As in
 * strtok_r, a token read past its object is left unterminated. */
char *strsep(char **sp, const char *delim)
{
	if (!CHECK_READ(sp, sizeof(*sp)))
		return NULL;
	char *begin = *sp;
	if (!begin)
		return NULL;
	size_t dl = get_strlen()(delim), len = get_strcspn()(begin, delim);
	char *end = begin + len;
	int read_ok = CHECK_READ(delim, dl + 1) && CHECK_READ(begin, len + 1);
	char *next = *end ? end + 1 : NULL;
	if (*end && read_ok)
		*end = 0;
	if (CHECK_WRITE(sp, sizeof(*sp)))
		*sp = next;
	return begin;
}

/* The spans read all of the set, and the string up to the byte that
 * stopped them. */
size_t strspn(const char *s, const char *accept)
{
	size_t r = get_strspn()(s, accept);
	CHECK_READ(accept, get_strlen()(accept) + 1);
	CHECK_READ(s, strict_len(s, r + 1, SIZE_MAX));
	return r;
}

size_t strcspn(const char *s, const char *reject)
{
	size_t r = get_strcspn()(s, reject);
	CHECK_READ(reject, get_strlen()(reject) + 1);
	CHECK_READ(s, strict_len(s, r + 1, SIZE_MAX));
	return r;
}

char *strpbrk(const char *s, const char *accept)
{
	char *r = get_strpbrk()(s, accept);
	CHECK_READ(accept, get_strlen()(accept) + 1);
	CHECK_READ(s, strict_len(s, r ? (size_t)(r - s) + 1 : get_strlen()(s) + 1, SIZE_MAX));
	return r;
}

/* Both whole ranges, as AddressSanitizer checks them. */
void *memmem(const void *h, size_t hl, const void *n, size_t nl)
{
	void *r = get_memmem()(h, hl, n, nl);
	CHECK_READ(h, hl);
	CHECK_READ(n, nl);
	FUZZ_HOOK(memmem, h, hl, n, nl, r);
	return r;
}

/* As strstr: the haystack up to the end of the match, or whole. */
char *strcasestr(const char *h, const char *n)
{
	char *r = get_strcasestr()(h, n);
	size_t nl = get_strlen()(n);
	CHECK_READ(n, nl + 1);
	CHECK_READ(h, strict_len(h, r ? (size_t)(r - h) + nl : get_strlen()(h) + 1, SIZE_MAX));
	FUZZ_HOOK(strcasestr, h, n, r);
	return r;
}

/* Up to the first difference, in the locale's case mapping, or the
 * terminator; the result is glibc's. */
int strcasecmp(const char *a, const char *b)
{
	size_t len = cmp_scan(a, b, SIZE_MAX, 1, CMP_CASE, 0).len;
	CHECK_READ(a, len);
	CHECK_READ(b, len);
	int r = get_strcasecmp()(a, b);
	FUZZ_HOOK(strcasecmp, a, b, r);
	return r;
}

int strncasecmp(const char *a, const char *b, size_t n)
{
	size_t len = cmp_scan(a, b, n, 1, CMP_CASE, 0).len;
	CHECK_READ(a, strict_len(a, len, n));
	CHECK_READ(b, strict_len(b, len, n));
	int r = get_strncasecmp()(a, b, n);
	FUZZ_HOOK(strncasecmp, a, b, n, r);
	return r;
}

/* The whole source is read; the transformed string and its terminator are
 * written, at most n bytes (glibc copies min(length + 1, n) bytes in the C
 * locale even when the result does not fit). Its length, from a first
 * call that writes nothing, tells how many before the real call. */
size_t strxfrm(char *d, const char *s, size_t n)
{
	size_t need = get_strxfrm()(NULL, s, 0);
	if (!CHECK_READ(s, get_strlen()(s) + 1) || (n && !CHECK_WRITE(d, min_size(need + 1, n))))
		return need;
	return get_strxfrm()(d, s, n);
}
