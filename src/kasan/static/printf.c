/* The printf family writing into a buffer. The length is not known before
 * formatting, so each formats once without writing to learn it, checks the
 * bytes the real call will write (all of the text and its terminator, or
 * what fits in n), and only then formats into the buffer: a bad buffer is
 * reported and left untouched, as the other interceptors leave theirs. The
 * fortified entry points keep glibc's own checks (%n in writable formats,
 * the object size). */
#define _GNU_SOURCE
#include <stdarg.h>
#include <stdio.h>

#include "intercept.h"

REAL(int, vsnprintf, char *, size_t, const char *, va_list)
REAL(int, vsprintf, char *, const char *, va_list)
REAL(int, __vsnprintf_chk, char *, size_t, int, size_t, const char *, va_list)
REAL(int, __vsprintf_chk, char *, int, size_t, const char *, va_list)

/* Sets len to the text's length; 0 when the n (SIZE_MAX: unbounded) bytes
 * the call may write are bad (reported). A macro, not a function: va_copy
 * keeps a function from being inlined, and the trace should show the
 * interceptor right above its caller, as for the others. */
#define CHECK_OUT(d, n, fmt, ap, len)                                                              \
	({                                                                                         \
		va_list aq_;                                                                       \
		va_copy(aq_, ap);                                                                  \
		len = get_vsnprintf()(NULL, 0, fmt, aq_);                                          \
		va_end(aq_);                                                                       \
		size_t w_ = (size_t)len + 1;                                                       \
		len < 0 || (n) == 0 || CHECK_WRITE(d, w_ < (n) ? w_ : (n));                        \
	})

int vsnprintf(char *d, size_t n, const char *fmt, va_list ap)
{
	int len;
	if (!CHECK_OUT(d, n, fmt, ap, len))
		return len;
	return get_vsnprintf()(d, n, fmt, ap);
}

int vsprintf(char *d, const char *fmt, va_list ap)
{
	int len;
	if (!CHECK_OUT(d, (size_t)-1, fmt, ap, len))
		return len;
	return get_vsprintf()(d, fmt, ap);
}

int snprintf(char *d, size_t n, const char *fmt, ...)
{
	va_list ap;
	int len;
	va_start(ap, fmt);
	if (CHECK_OUT(d, n, fmt, ap, len))
		len = get_vsnprintf()(d, n, fmt, ap);
	va_end(ap);
	return len;
}

int sprintf(char *d, const char *fmt, ...)
{
	va_list ap;
	int len;
	va_start(ap, fmt);
	if (CHECK_OUT(d, (size_t)-1, fmt, ap, len))
		len = get_vsprintf()(d, fmt, ap);
	va_end(ap);
	return len;
}

/* A bad buffer within the object size glibc knows is skipped; past it, the
 * call is left to glibc, which aborts before writing. */
int __vsnprintf_chk(char *d, size_t n, int flag, size_t dlen, const char *fmt, va_list ap)
{
	int len;
	if (!CHECK_OUT(d, n, fmt, ap, len) && n <= dlen)
		return len;
	return get___vsnprintf_chk()(d, n, flag, dlen, fmt, ap);
}

int __vsprintf_chk(char *d, int flag, size_t dlen, const char *fmt, va_list ap)
{
	int len;
	if (!CHECK_OUT(d, (size_t)-1, fmt, ap, len) && (size_t)len < dlen)
		return len;
	return get___vsprintf_chk()(d, flag, dlen, fmt, ap);
}

int __snprintf_chk(char *d, size_t n, int flag, size_t dlen, const char *fmt, ...)
{
	va_list ap;
	int len;
	va_start(ap, fmt);
	if (CHECK_OUT(d, n, fmt, ap, len) || n > dlen)
		len = get___vsnprintf_chk()(d, n, flag, dlen, fmt, ap);
	va_end(ap);
	return len;
}

int __sprintf_chk(char *d, int flag, size_t dlen, const char *fmt, ...)
{
	va_list ap;
	int len;
	va_start(ap, fmt);
	if (CHECK_OUT(d, (size_t)-1, fmt, ap, len) || (size_t)len >= dlen)
		len = get___vsprintf_chk()(d, flag, dlen, fmt, ap);
	va_end(ap);
	return len;
}
