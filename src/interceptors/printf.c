/* The printf family. Before a call: its format, the strings its %s
 * conversions read and the integers its %n write (format.c). A bad format
 * or string is reported and the call goes on, as ASan's does after a
 * recovered report: the check has just read those bytes to find their
 * length, so the call can, and the program's output (a log line, the
 * very text that shows the bug) still appears. A bad %n target is
 * reported and the call fails with EFAULT, before it reads or writes
 * anything: glibc would write into a neighbour, or fault on NULL.
 *
 * Those writing into a buffer learn the text's length first by formatting
 * once without writing, check the bytes the real call will write (all of
 * the text and its terminator, or what fits in n), and only then format
 * into the buffer: a bad buffer is reported and left untouched, and the
 * call returns what it would have, as the string functions do. The
 * fortified entry points keep glibc's own checks (%n in writable formats,
 * the object size). */
#define _GNU_SOURCE
#include <obstack.h>
#include <stdarg.h>
#include <stdio.h>

#include "format.h"

REAL(int, vsnprintf, char *, size_t, const char *, va_list)
REAL(int, vsprintf, char *, const char *, va_list)
REAL(int, __vsnprintf_chk, char *, size_t, int, size_t, const char *, va_list)
REAL(int, __vsprintf_chk, char *, int, size_t, const char *, va_list)
REAL(int, vfprintf, FILE *, const char *, va_list)
REAL(int, vprintf, const char *, va_list)
REAL(int, vdprintf, int, const char *, va_list)
REAL(int, vasprintf, char **, const char *, va_list)
REAL(int, obstack_vprintf, struct obstack *, const char *, va_list)
REAL(int, __vfprintf_chk, FILE *, int, const char *, va_list)
REAL(int, __vprintf_chk, int, const char *, va_list)
REAL(int, __vdprintf_chk, int, int, const char *, va_list)
REAL(int, __vasprintf_chk, char **, int, const char *, va_list)
REAL(int, __obstack_vprintf_chk, struct obstack *, int, const char *, va_list)

/* The arguments, checked from the interceptor's caller. */
#define ARGS_OK(fmt, ap) fmt_check_printf(fmt, FMT_NARROW, ap, RET_IP)

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
	if (!ARGS_OK(fmt, ap))
		return fmt_fail();
	if (!CHECK_OUT(d, n, fmt, ap, len))
		return len;
	return get_vsnprintf()(d, n, fmt, ap);
}

int vsprintf(char *d, const char *fmt, va_list ap)
{
	int len;
	if (!ARGS_OK(fmt, ap))
		return fmt_fail();
	if (!CHECK_OUT(d, (size_t)-1, fmt, ap, len))
		return len;
	return get_vsprintf()(d, fmt, ap);
}

int snprintf(char *d, size_t n, const char *fmt, ...)
{
	va_list ap;
	int len;
	va_start(ap, fmt);
	if (!ARGS_OK(fmt, ap))
		len = fmt_fail();
	else if (CHECK_OUT(d, n, fmt, ap, len))
		len = get_vsnprintf()(d, n, fmt, ap);
	va_end(ap);
	return len;
}

int sprintf(char *d, const char *fmt, ...)
{
	va_list ap;
	int len;
	va_start(ap, fmt);
	if (!ARGS_OK(fmt, ap))
		len = fmt_fail();
	else if (CHECK_OUT(d, (size_t)-1, fmt, ap, len))
		len = get_vsprintf()(d, fmt, ap);
	va_end(ap);
	return len;
}

/* A bad buffer within the object size glibc knows is skipped; past it, the
 * call is left to glibc, which aborts before writing. */
int __vsnprintf_chk(char *d, size_t n, int flag, size_t dlen, const char *fmt, va_list ap)
{
	int len;
	if (!ARGS_OK(fmt, ap))
		return fmt_fail_chk(n, dlen);
	if (!CHECK_OUT(d, n, fmt, ap, len) && n <= dlen)
		return len;
	return get___vsnprintf_chk()(d, n, flag, dlen, fmt, ap);
}

int __vsprintf_chk(char *d, int flag, size_t dlen, const char *fmt, va_list ap)
{
	int len;
	if (!ARGS_OK(fmt, ap))
		return fmt_fail();
	if (!CHECK_OUT(d, (size_t)-1, fmt, ap, len) && (size_t)len < dlen)
		return len;
	return get___vsprintf_chk()(d, flag, dlen, fmt, ap);
}

int __snprintf_chk(char *d, size_t n, int flag, size_t dlen, const char *fmt, ...)
{
	va_list ap;
	int len;
	va_start(ap, fmt);
	if (!ARGS_OK(fmt, ap))
		len = fmt_fail_chk(n, dlen);
	else if (CHECK_OUT(d, n, fmt, ap, len) || n > dlen)
		len = get___vsnprintf_chk()(d, n, flag, dlen, fmt, ap);
	va_end(ap);
	return len;
}

int __sprintf_chk(char *d, int flag, size_t dlen, const char *fmt, ...)
{
	va_list ap;
	int len;
	va_start(ap, fmt);
	if (!ARGS_OK(fmt, ap))
		len = fmt_fail();
	else if (CHECK_OUT(d, (size_t)-1, fmt, ap, len) || (size_t)len >= dlen)
		len = get___vsprintf_chk()(d, flag, dlen, fmt, ap);
	va_end(ap);
	return len;
}

/* The rest write to a stream, a descriptor or memory of their own: only
 * their arguments are the program's (and asprintf's pointer). A variadic
 * one hands its arguments to glibc's v-form once they are checked. */
#define VARIADIC(check, call)                                                                      \
	va_list ap;                                                                                \
	va_start(ap, fmt);                                                                         \
	int r_ = (check) ? (call) : fmt_fail();                                                    \
	va_end(ap);                                                                                \
	return r_

#define STRP_OK(strp) CHECK_WRITE(strp, sizeof(*(strp)))

int vprintf(const char *fmt, va_list ap)
{
	return ARGS_OK(fmt, ap) ? get_vprintf()(fmt, ap) : fmt_fail();
}

int vfprintf(FILE *f, const char *fmt, va_list ap)
{
	return ARGS_OK(fmt, ap) ? get_vfprintf()(f, fmt, ap) : fmt_fail();
}

int vdprintf(int fd, const char *fmt, va_list ap)
{
	return ARGS_OK(fmt, ap) ? get_vdprintf()(fd, fmt, ap) : fmt_fail();
}

int vasprintf(char **strp, const char *fmt, va_list ap)
{
	return STRP_OK(strp) && ARGS_OK(fmt, ap) ? get_vasprintf()(strp, fmt, ap) : fmt_fail();
}

int obstack_vprintf(struct obstack *o, const char *fmt, va_list ap)
{
	return ARGS_OK(fmt, ap) ? get_obstack_vprintf()(o, fmt, ap) : fmt_fail();
}

int printf(const char *fmt, ...)
{
	VARIADIC(ARGS_OK(fmt, ap), get_vprintf()(fmt, ap));
}

int fprintf(FILE *f, const char *fmt, ...)
{
	VARIADIC(ARGS_OK(fmt, ap), get_vfprintf()(f, fmt, ap));
}

int dprintf(int fd, const char *fmt, ...)
{
	VARIADIC(ARGS_OK(fmt, ap), get_vdprintf()(fd, fmt, ap));
}

int asprintf(char **strp, const char *fmt, ...)
{
	VARIADIC(STRP_OK(strp) && ARGS_OK(fmt, ap), get_vasprintf()(strp, fmt, ap));
}

int obstack_printf(struct obstack *o, const char *fmt, ...)
{
	VARIADIC(ARGS_OK(fmt, ap), get_obstack_vprintf()(o, fmt, ap));
}

int __vprintf_chk(int flag, const char *fmt, va_list ap)
{
	return ARGS_OK(fmt, ap) ? get___vprintf_chk()(flag, fmt, ap) : fmt_fail();
}

int __vfprintf_chk(FILE *f, int flag, const char *fmt, va_list ap)
{
	return ARGS_OK(fmt, ap) ? get___vfprintf_chk()(f, flag, fmt, ap) : fmt_fail();
}

int __vdprintf_chk(int fd, int flag, const char *fmt, va_list ap)
{
	return ARGS_OK(fmt, ap) ? get___vdprintf_chk()(fd, flag, fmt, ap) : fmt_fail();
}

int __vasprintf_chk(char **strp, int flag, const char *fmt, va_list ap)
{
	return STRP_OK(strp) && ARGS_OK(fmt, ap) ? get___vasprintf_chk()(strp, flag, fmt, ap)
	                                         : fmt_fail();
}

int __obstack_vprintf_chk(struct obstack *o, int flag, const char *fmt, va_list ap)
{
	return ARGS_OK(fmt, ap) ? get___obstack_vprintf_chk()(o, flag, fmt, ap) : fmt_fail();
}

int __printf_chk(int flag, const char *fmt, ...)
{
	VARIADIC(ARGS_OK(fmt, ap), get___vprintf_chk()(flag, fmt, ap));
}

int __fprintf_chk(FILE *f, int flag, const char *fmt, ...)
{
	VARIADIC(ARGS_OK(fmt, ap), get___vfprintf_chk()(f, flag, fmt, ap));
}

int __dprintf_chk(int fd, int flag, const char *fmt, ...)
{
	VARIADIC(ARGS_OK(fmt, ap), get___vdprintf_chk()(fd, flag, fmt, ap));
}

int __asprintf_chk(char **strp, int flag, const char *fmt, ...)
{
	VARIADIC(STRP_OK(strp) && ARGS_OK(fmt, ap), get___vasprintf_chk()(strp, flag, fmt, ap));
}

int __obstack_printf_chk(struct obstack *o, int flag, const char *fmt, ...)
{
	VARIADIC(ARGS_OK(fmt, ap), get___obstack_vprintf_chk()(o, flag, fmt, ap));
}
