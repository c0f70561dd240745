/* The scanf family. What a call stores depends on its input, so the
 * objects of the conversions it assigned (its return value counts them)
 * are checked after it, as AddressSanitizer does (format.c): an overflow
 * is reported once it has happened, from the caller. Before the call, the
 * format and sscanf's input string, which glibc reads whole: a bad one is
 * reported and the call fails with EFAULT, returning EOF, as an input
 * error does.
 *
 * Both glibc's names: scanf and friends, which read GNU's %as (allocating),
 * and the __isoc99_ ones, which read C99's %a (a float), and which the
 * headers call in C99 and later modes. No <stdio.h> here: its redirections
 * would rename the plain ones' definitions to the __isoc99_ names. */
#define _GNU_SOURCE
#include <bits/types/FILE.h>
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>

#include "format.h"

#define EOF (-1)

REAL(int, vscanf, const char *, va_list)
REAL(int, vfscanf, FILE *, const char *, va_list)
REAL(int, vsscanf, const char *, const char *, va_list)
REAL(int, __isoc99_vscanf, const char *, va_list)
REAL(int, __isoc99_vfscanf, FILE *, const char *, va_list)
REAL(int, __isoc99_vsscanf, const char *, const char *, va_list)
REAL(int, vwscanf, const wchar_t *, va_list)
REAL(int, vfwscanf, FILE *, const wchar_t *, va_list)
REAL(int, vswscanf, const wchar_t *, const wchar_t *, va_list)
REAL(int, __isoc99_vwscanf, const wchar_t *, va_list)
REAL(int, __isoc99_vfwscanf, FILE *, const wchar_t *, va_list)
REAL(int, __isoc99_vswscanf, const wchar_t *, const wchar_t *, va_list)

/* name's v-form, given (ap): inputs checked (each a string of the format's
 * width), the call, its outputs. A macro: the reports name the
 * interceptor's caller. */
#define SCANNED(wide, gnu_a, fmt, ap, inputs_ok, call)                                             \
	({                                                                                         \
		int r_;                                                                            \
		if (!(inputs_ok)) {                                                                \
			errno = EFAULT;                                                            \
			r_ = EOF;                                                                  \
		} else {                                                                           \
			va_list aq_;                                                               \
			va_copy(aq_, ap);                                                          \
			r_ = (call);                                                               \
			fmt_check_scanf(fmt, wide, gnu_a, r_, aq_, RET_IP);                        \
			va_end(aq_);                                                               \
		}                                                                                  \
		r_;                                                                                \
	})

#define FORMAT_OK(fmt, wide) (!(fmt) || fmt_check_string(fmt, wide, RET_IP))
#define INPUT_OK(s, wide)    (!(s) || fmt_check_string(s, wide, RET_IP))

/* From stdin or a stream. */
#define STREAM(wide, gnu_a, call) SCANNED(wide, gnu_a, fmt, ap, FORMAT_OK(fmt, wide), call)
/* From a string. */
#define STRING(wide, gnu_a, call)                                                                  \
	SCANNED(wide, gnu_a, fmt, ap, FORMAT_OK(fmt, wide) && INPUT_OK(s, wide), call)

#define VARIADIC(expr)                                                                             \
	va_list ap;                                                                                \
	va_start(ap, fmt);                                                                         \
	int r = expr;                                                                              \
	va_end(ap);                                                                                \
	return r

/* One name's four forms: f(fmt, ...), vf(fmt, ap), ff(FILE, fmt, ...),
 * vff(FILE, fmt, ap), sf(s, fmt, ...), vsf(s, fmt, ap), for a format of
 * type C, the real v-forms being real_v, real_vf and real_vs. */
#define FAMILY(C, wide, gnu_a, f, vf, ff, vff, sf, vsf, real_v, real_vf, real_vs)                  \
	int vf(const C *fmt, va_list ap)                                                           \
	{                                                                                          \
		return STREAM(wide, gnu_a, get_##real_v()(fmt, ap));                               \
	}                                                                                          \
	int vff(FILE *stream, const C *fmt, va_list ap)                                            \
	{                                                                                          \
		return STREAM(wide, gnu_a, get_##real_vf()(stream, fmt, ap));                      \
	}                                                                                          \
	int vsf(const C *s, const C *fmt, va_list ap)                                              \
	{                                                                                          \
		return STRING(wide, gnu_a, get_##real_vs()(s, fmt, ap));                           \
	}                                                                                          \
	int f(const C *fmt, ...)                                                                   \
	{                                                                                          \
		VARIADIC(STREAM(wide, gnu_a, get_##real_v()(fmt, ap)));                            \
	}                                                                                          \
	int ff(FILE *stream, const C *fmt, ...)                                                    \
	{                                                                                          \
		VARIADIC(STREAM(wide, gnu_a, get_##real_vf()(stream, fmt, ap)));                   \
	}                                                                                          \
	int sf(const C *s, const C *fmt, ...)                                                      \
	{                                                                                          \
		VARIADIC(STRING(wide, gnu_a, get_##real_vs()(s, fmt, ap)));                        \
	}

// clang-format off
FAMILY(char, FMT_NARROW, 1, scanf, vscanf, fscanf, vfscanf, sscanf, vsscanf,
       vscanf, vfscanf, vsscanf)
FAMILY(char, FMT_NARROW, 0, __isoc99_scanf, __isoc99_vscanf, __isoc99_fscanf, __isoc99_vfscanf,
       __isoc99_sscanf, __isoc99_vsscanf, __isoc99_vscanf, __isoc99_vfscanf, __isoc99_vsscanf)
FAMILY(wchar_t, FMT_WIDE, 1, wscanf, vwscanf, fwscanf, vfwscanf, swscanf, vswscanf,
       vwscanf, vfwscanf, vswscanf)
FAMILY(wchar_t, FMT_WIDE, 0, __isoc99_wscanf, __isoc99_vwscanf, __isoc99_fwscanf,
       __isoc99_vfwscanf, __isoc99_swscanf, __isoc99_vswscanf, __isoc99_vwscanf,
       __isoc99_vfwscanf, __isoc99_vswscanf)
// clang-format on
