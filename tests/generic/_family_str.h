/* For the string, wide-character and multibyte family tests
 * (family_str*.c, family_wchar*.c, family_mb*.c, family_fortify_str*.c),
 * on top of _family.h: strings laid out so that a call reads exactly n
 * bytes of the buffer, n being FAMILY_SIZE in bounds and one more past it.
 * Their last bytes then lie past the buffer, so they are written without
 * checks.
 *
 * A wide-character call reads or writes FAMILY_WN wchar_t: the buffer's
 * four in bounds, five (20 bytes, the first bad one at 16) past it. */
#ifndef FAMILY_STR_H
#define FAMILY_STR_H

#include "_family.h"

#include <wchar.h>

#define FAMILY_WN     (n - FAMILY_SIZE + FAMILY_SIZE / sizeof(wchar_t))
#define FAMILY_WBYTES (FAMILY_WN * sizeof(wchar_t))

/* Uninstrumented, and byte by byte through volatile, so that no compiler
 * turns the loops into calls of the interceptors under test. */
#define FAMILY_NOCHECK __attribute__((noinline, unused, no_sanitize("kernel-address")))

/* f itself, called through a pointer the compiler cannot see through:
 * GCC and clang turn calls of bcopy and bzero into memmove and memset,
 * which programs and uninstrumented libraries may still call by name. */
#define FAMILY_HIDDEN(f)                                                                           \
	(*({                                                                                       \
		__typeof__(&f) family_fn_ = &f;                                                    \
		OPTIMIZER_HIDE_VAR(family_fn_);                                                    \
		family_fn_;                                                                        \
	}))

/* More room than the buffer has, which the compiler cannot see: for the
 * calls that must be told so, to write up to where the text stops them. */
static volatile size_t family_room = 64;

/* A second operand that is never the bad one, as family_big, and the
 * same in wchar_t. */
static char family_big2[4 * FAMILY_SIZE + 64];
static wchar_t family_wbig[4 * FAMILY_SIZE + 64];

/* len bytes of c, without a terminator. */
static FAMILY_NOCHECK void family_fill(void *p, size_t len, int c)
{
	for (size_t i = 0; i < len; i++)
		((volatile char *)p)[i] = (char)c;
}

/* A string that takes len bytes: len - 1 of c, then its terminator. */
static FAMILY_NOCHECK void family_str(void *p, size_t len, int c)
{
	family_fill(p, len - 1, c);
	((volatile char *)p)[len - 1] = 0;
}

static FAMILY_NOCHECK void family_wfill(void *p, size_t len, wchar_t c)
{
	for (size_t i = 0; i < len; i++)
		((volatile wchar_t *)p)[i] = c;
}

/* A wide string that takes len wchar_t, its terminator the last. */
static FAMILY_NOCHECK void family_wstr(void *p, size_t len, wchar_t c)
{
	family_wfill(p, len - 1, c);
	((volatile wchar_t *)p)[len - 1] = 0;
}

/* len bytes of v at p: a pointer or a conversion state that ends at the
 * buffer's last byte, or one byte past it. */
static FAMILY_NOCHECK void family_put(void *p, const void *v, size_t len)
{
	for (size_t i = 0; i < len; i++)
		((volatile char *)p)[i] = ((const char *)v)[i];
}

#endif
