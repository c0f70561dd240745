/* Checked collation and version comparisons (strcoll, wcscoll, strverscmp)
 * and the forms of the locale-dependent string functions that take their
 * locale as an argument (strcoll_l, wcscoll_l, strcasecmp_l, strncasecmp_l,
 * strxfrm_l, wcsxfrm_l, wcscasecmp_l, wcsncasecmp_l), linked into
 * instrumented programs.
 *
 * A collation may look at every byte of both strings whatever their first
 * difference (ignorable characters, later passes), so both are checked up
 * to their terminators, after the call, as AddressSanitizer does. The _l
 * forms check what their plain forms in strscan.c and wchar.c do, with the
 * case mapping of the locale they are given. */
#define _GNU_SOURCE
#include <ctype.h>
#include <locale.h>
#include <string.h>
#include <wchar.h>
#include <wctype.h>

#include "compare.h"
#include "intercept.h"

REAL(size_t, strlen, const char *)
REAL(size_t, wcslen, const wchar_t *)
REAL(int, strcoll, const char *, const char *)
REAL(int, strcoll_l, const char *, const char *, locale_t)
REAL(int, wcscoll, const wchar_t *, const wchar_t *)
REAL(int, wcscoll_l, const wchar_t *, const wchar_t *, locale_t)
REAL(int, strverscmp, const char *, const char *)
REAL(int, strcasecmp_l, const char *, const char *, locale_t)
REAL(int, strncasecmp_l, const char *, const char *, size_t, locale_t)
REAL(size_t, strxfrm_l, char *, const char *, size_t, locale_t)
REAL(size_t, wcsxfrm_l, wchar_t *, const wchar_t *, size_t, locale_t)
REAL(int, wcscasecmp_l, const wchar_t *, const wchar_t *, locale_t)
REAL(int, wcsncasecmp_l, const wchar_t *, const wchar_t *, size_t, locale_t)

#define W sizeof(wchar_t)

static size_t min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

int strcoll(const char *a, const char *b)
{
	int r = get_strcoll()(a, b);
	CHECK_READ(a, get_strlen()(a) + 1);
	CHECK_READ(b, get_strlen()(b) + 1);
	return r;
}

int strcoll_l(const char *a, const char *b, locale_t loc)
{
	int r = get_strcoll_l()(a, b, loc);
	CHECK_READ(a, get_strlen()(a) + 1);
	CHECK_READ(b, get_strlen()(b) + 1);
	return r;
}

int wcscoll(const wchar_t *a, const wchar_t *b)
{
	int r = get_wcscoll()(a, b);
	CHECK_READ(a, (get_wcslen()(a) + 1) * W);
	CHECK_READ(b, (get_wcslen()(b) + 1) * W);
	return r;
}

int wcscoll_l(const wchar_t *a, const wchar_t *b, locale_t loc)
{
	int r = get_wcscoll_l()(a, b, loc);
	CHECK_READ(a, (get_wcslen()(a) + 1) * W);
	CHECK_READ(b, (get_wcslen()(b) + 1) * W);
	return r;
}

/* glibc stops at the first difference, but then reads on through the digits
 * of both; the whole strings bound that, as for the collations. */
int strverscmp(const char *a, const char *b)
{
	int r = get_strverscmp()(a, b);
	CHECK_READ(a, get_strlen()(a) + 1);
	CHECK_READ(b, get_strlen()(b) + 1);
	return r;
}

/* Up to the first difference in loc's case mapping, or the terminator. */
int strcasecmp_l(const char *a, const char *b, locale_t loc)
{
	size_t len = cmp_scan(a, b, SIZE_MAX, 1, CMP_CASE_L, loc).len;
	CHECK_READ(a, len);
	CHECK_READ(b, len);
	return get_strcasecmp_l()(a, b, loc);
}

int strncasecmp_l(const char *a, const char *b, size_t n, locale_t loc)
{
	size_t len = cmp_scan(a, b, n, 1, CMP_CASE_L, loc).len;
	CHECK_READ(a, len);
	CHECK_READ(b, len);
	return get_strncasecmp_l()(a, b, n, loc);
}

/* As strxfrm (strscan.c): the whole source, and min(length + 1, n) bytes
 * of the destination, known from a first call that writes nothing. */
size_t strxfrm_l(char *d, const char *s, size_t n, locale_t loc)
{
	size_t need = get_strxfrm_l()(NULL, s, 0, loc);
	if (!CHECK_READ(s, get_strlen()(s) + 1) || (n && !CHECK_WRITE(d, min_size(need + 1, n))))
		return need;
	return get_strxfrm_l()(d, s, n, loc);
}

size_t wcsxfrm_l(wchar_t *d, const wchar_t *s, size_t n, locale_t loc)
{
	size_t need = get_wcsxfrm_l()(NULL, s, 0, loc);
	if (!CHECK_READ(s, (get_wcslen()(s) + 1) * W) ||
	    (n && !CHECK_WRITE(d, min_size(need + 1, n) * W)))
		return need;
	return get_wcsxfrm_l()(d, s, n, loc);
}

int wcscasecmp_l(const wchar_t *a, const wchar_t *b, locale_t loc)
{
	size_t len = cmp_scan(a, b, SIZE_MAX, W, CMP_CASE_L, loc).len;
	CHECK_READ(a, len * W);
	CHECK_READ(b, len * W);
	return get_wcscasecmp_l()(a, b, loc);
}

int wcsncasecmp_l(const wchar_t *a, const wchar_t *b, size_t n, locale_t loc)
{
	size_t len = cmp_scan(a, b, n, W, CMP_CASE_L, loc).len;
	CHECK_READ(a, len * W);
	CHECK_READ(b, len * W);
	return get_wcsncasecmp_l()(a, b, n, loc);
}

/* The names glibc also exports them under (__strcoll_l is what libstdc++'s
 * std::collate calls), with their attributes. */
#define ALIAS(f) __attribute__((alias(#f), copy(f)))

int __strcoll_l(const char *, const char *, locale_t) ALIAS(strcoll_l);
int __wcscoll_l(const wchar_t *, const wchar_t *, locale_t) ALIAS(wcscoll_l);
int __strcasecmp_l(const char *, const char *, locale_t) ALIAS(strcasecmp_l);
int __strncasecmp_l(const char *, const char *, size_t, locale_t) ALIAS(strncasecmp_l);
size_t __strxfrm_l(char *, const char *, size_t, locale_t) ALIAS(strxfrm_l);
size_t __wcsxfrm_l(wchar_t *, const wchar_t *, size_t, locale_t) ALIAS(wcsxfrm_l);
int __wcscasecmp_l(const wchar_t *, const wchar_t *, locale_t) ALIAS(wcscasecmp_l);
int __wcsncasecmp_l(const wchar_t *, const wchar_t *, size_t, locale_t) ALIAS(wcsncasecmp_l);
