/* The wide printf family: as printf.c, with formats and buffers of
 * wchar_t. Arguments first (a bad string is reported and read on; a bad
 * %n target fails the call with EFAULT); then,
 * for swprintf and vswprintf, the wide characters the call will write,
 * learnt by formatting once into a memory stream of glibc's. */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <wchar.h>

#include "format.h"

REAL(int, vswprintf, wchar_t *, size_t, const wchar_t *, va_list)
REAL(int, __vswprintf_chk, wchar_t *, size_t, int, size_t, const wchar_t *, va_list)
REAL(int, vfwprintf, FILE *, const wchar_t *, va_list)
REAL(int, vwprintf, const wchar_t *, va_list)
REAL(int, __vfwprintf_chk, FILE *, int, const wchar_t *, va_list)
REAL(int, __vwprintf_chk, int, const wchar_t *, va_list)

#define ARGS_OK(fmt, ap) fmt_check_printf(fmt, FMT_WIDE, ap, RET_IP)

/* The text's length in wide characters, -1 when it cannot be formatted.
 * A wide memory stream holds wide characters as they are, as swprintf's
 * buffer does: a stream to a file would convert them to the locale's
 * multibyte form, and fail where swprintf does not. */
static int wide_length(const wchar_t *fmt, va_list ap)
{
	wchar_t *text = NULL;
	size_t size = 0;
	FILE *f = open_wmemstream(&text, &size);
	if (!f)
		return -1;
	va_list aq;
	va_copy(aq, ap);
	int len = get_vfwprintf()(f, fmt, aq);
	va_end(aq);
	fclose(f);
	free(text);
	return len;
}

/* The wide characters glibc's swprintf writes for a text of len: the text
 * and its terminator when they fit in n; when not, the n - 1 that fit and
 * no terminator (it returns -1), but at least the first, which it clears
 * before formatting. */
static size_t wide_written(int len, size_t n)
{
	size_t w = (size_t)len < n ? (size_t)len + 1 : n - 1;
	return w ? w : 1;
}

/* Sets len; 0 when the wide characters the call writes are bad (reported).
 * A macro: the report names the interceptor's caller. */
#define CHECK_WOUT(d, n, fmt, ap, len)                                                             \
	((len = wide_length(fmt, ap)) < 0 || (n) == 0 ||                                           \
	 CHECK_WRITE(d, wide_written(len, n) * sizeof(wchar_t)))

/* What the call would have returned. */
static int wide_result(int len, size_t n)
{
	return (size_t)len < n ? len : -1;
}

int vswprintf(wchar_t *d, size_t n, const wchar_t *fmt, va_list ap)
{
	int len;
	if (!ARGS_OK(fmt, ap))
		return fmt_fail();
	if (!CHECK_WOUT(d, n, fmt, ap, len))
		return wide_result(len, n);
	return get_vswprintf()(d, n, fmt, ap);
}

int swprintf(wchar_t *d, size_t n, const wchar_t *fmt, ...)
{
	va_list ap;
	int len;
	va_start(ap, fmt);
	if (!ARGS_OK(fmt, ap))
		len = fmt_fail();
	else if (!CHECK_WOUT(d, n, fmt, ap, len))
		len = wide_result(len, n);
	else
		len = get_vswprintf()(d, n, fmt, ap);
	va_end(ap);
	return len;
}

/* dlen counts wide characters. Past it glibc aborts before formatting:
 * its verdict is kept after the report. */
int __vswprintf_chk(wchar_t *d, size_t n, int flag, size_t dlen, const wchar_t *fmt, va_list ap)
{
	int len;
	if (!ARGS_OK(fmt, ap))
		return fmt_fail_chk(n, dlen);
	if (!CHECK_WOUT(d, n, fmt, ap, len) && n <= dlen)
		return wide_result(len, n);
	return get___vswprintf_chk()(d, n, flag, dlen, fmt, ap);
}

int __swprintf_chk(wchar_t *d, size_t n, int flag, size_t dlen, const wchar_t *fmt, ...)
{
	va_list ap;
	int len;
	va_start(ap, fmt);
	if (!ARGS_OK(fmt, ap))
		len = fmt_fail_chk(n, dlen);
	else if (!CHECK_WOUT(d, n, fmt, ap, len) && n <= dlen)
		len = wide_result(len, n);
	else
		len = get___vswprintf_chk()(d, n, flag, dlen, fmt, ap);
	va_end(ap);
	return len;
}

/* To streams: the arguments only. */
#define VARIADIC(call)                                                                             \
	va_list ap;                                                                                \
	va_start(ap, fmt);                                                                         \
	int r_ = ARGS_OK(fmt, ap) ? (call) : fmt_fail();                                           \
	va_end(ap);                                                                                \
	return r_

int vwprintf(const wchar_t *fmt, va_list ap)
{
	return ARGS_OK(fmt, ap) ? get_vwprintf()(fmt, ap) : fmt_fail();
}

int vfwprintf(FILE *f, const wchar_t *fmt, va_list ap)
{
	return ARGS_OK(fmt, ap) ? get_vfwprintf()(f, fmt, ap) : fmt_fail();
}

int __vwprintf_chk(int flag, const wchar_t *fmt, va_list ap)
{
	return ARGS_OK(fmt, ap) ? get___vwprintf_chk()(flag, fmt, ap) : fmt_fail();
}

int __vfwprintf_chk(FILE *f, int flag, const wchar_t *fmt, va_list ap)
{
	return ARGS_OK(fmt, ap) ? get___vfwprintf_chk()(f, flag, fmt, ap) : fmt_fail();
}

int wprintf(const wchar_t *fmt, ...)
{
	VARIADIC(get_vwprintf()(fmt, ap));
}

int fwprintf(FILE *f, const wchar_t *fmt, ...)
{
	VARIADIC(get_vfwprintf()(f, fmt, ap));
}

int __wprintf_chk(int flag, const wchar_t *fmt, ...)
{
	VARIADIC(get___vwprintf_chk()(flag, fmt, ap));
}

int __fwprintf_chk(FILE *f, int flag, const wchar_t *fmt, ...)
{
	VARIADIC(get___vfwprintf_chk()(f, flag, fmt, ap));
}
