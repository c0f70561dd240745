/* For the printf and scanf family tests (_family.h): texts, strings that
 * end exactly at or one past a buffer, and va_lists for the v-forms. */
#ifndef FAMILY_FORMAT_H
#define FAMILY_FORMAT_H

#include "_family.h"

#include <stdarg.h>
#include <stdio.h>
#include <wchar.h>

/* len 'x's and a terminator: an input or a source that is never the bad
 * one. */
static char family_text_buf[4 * FAMILY_SIZE];
static wchar_t family_wtext_buf[4 * FAMILY_SIZE];

static const char *family_text(size_t len)
{
	for (size_t i = 0; i < len; i++)
		family_text_buf[i] = 'x';
	family_text_buf[len] = 0;
	return family_text_buf;
}

static const wchar_t *family_wtext(size_t len)
{
	for (size_t i = 0; i < len; i++)
		family_wtext_buf[i] = L'x';
	family_wtext_buf[len] = 0;
	return family_wtext_buf;
}

/* A string of len bytes, its terminator included, at b: it ends one byte
 * past a buffer of len - 1. Written unchecked, as the memory past the
 * buffer is what the call must be caught reading; volatile, so that the
 * compiler makes no checked memset of it. */
static __attribute__((noinline, no_sanitize("kernel-address"))) void family_string(char *b,
                                                                                   size_t len)
{
	volatile char *v = b;
	for (size_t i = 0; i + 1 < len; i++)
		v[i] = 'a';
	v[len - 1] = 0;
}

/* The same in wchar_t: len wide characters, the terminator included. */
static __attribute__((noinline, no_sanitize("kernel-address"))) void family_wstring(char *b,
                                                                                    size_t len)
{
	volatile wchar_t *v = (wchar_t *)b;
	for (size_t i = 0; i + 1 < len; i++)
		v[i] = L'a';
	v[len - 1] = 0;
}

/* Wide characters in n bytes, rounded up: one more than fit in the buffer
 * when n is one past it. */
#define FAMILY_WN(n) (((n) + sizeof(wchar_t) - 1) / sizeof(wchar_t))

/* A va_list of pointer-sized arguments (cast each to uintptr_t), laid out
 * as the ABI lays out its part on the stack, with the registers' part used
 * up. The v-forms are called from the case itself: a variadic helper would
 * be the caller the report names. */
#if defined(__x86_64__)
#define FAMILY_VA_LIST(ap, ...)                                                                    \
	uintptr_t ap##_args[] = {__VA_ARGS__};                                                     \
	va_list ap;                                                                                \
	ap[0].gp_offset = 48;                                                                      \
	ap[0].fp_offset = 304;                                                                     \
	ap[0].overflow_arg_area = ap##_args;                                                       \
	ap[0].reg_save_area = NULL
#elif defined(__aarch64__)
/* AAPCS64: offsets of 0 (not negative) say both register save areas are
 * used up, so every va_arg reads the next 8-byte slot at __stack. */
#define FAMILY_VA_LIST(ap, ...)                                                                    \
	uintptr_t ap##_args[] = {__VA_ARGS__};                                                     \
	va_list ap;                                                                                \
	ap.__stack = ap##_args;                                                                    \
	ap.__gr_top = NULL;                                                                        \
	ap.__vr_top = NULL;                                                                        \
	ap.__gr_offs = 0;                                                                          \
	ap.__vr_offs = 0
#else
#error "FAMILY_VA_LIST: no va_list layout for this architecture"
#endif

#endif
