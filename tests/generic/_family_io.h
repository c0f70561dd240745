/* What the I/O and system-call family tests (family_io*.c, family_sys*.c)
 * share with _family.h's cases: memory the call under test must find
 * already in place, even one byte past the buffer, and descriptors and
 * streams to make the calls on. */
#ifndef FAMILY_IO_H
#define FAMILY_IO_H

#include "_family.h"

#include <fcntl.h>
#include <stdio.h>
#include <wchar.h>

/* GCC sees some of the calls one byte past at compile time, as it should. */
#ifndef __clang__
#pragma GCC diagnostic ignored "-Wstringop-overflow"
#pragma GCC diagnostic ignored "-Wstringop-overread"
#endif

/* Copies bytes where the instrumentation and the interceptors do not see
 * it: a string's terminator or a structure's last byte may go one byte
 * past its buffer, into the redzone, where the call must find it. */
static __attribute__((noinline, unused, no_sanitize("kernel-address"))) void
family_put(void *dst, const void *src, size_t n)
{
	for (size_t i = 0; i < n; i++)
		((volatile char *)dst)[i] = ((const volatile char *)src)[i];
}

/* n bytes at p: n - 1 'a's and a terminator. */
static __attribute__((noinline, unused, no_sanitize("kernel-address"))) void
family_string(char *p, size_t n)
{
	for (size_t i = 0; i + 1 < n; i++)
		((volatile char *)p)[i] = 'a';
	((volatile char *)p)[n - 1] = 0;
}

/* bytes / sizeof(wchar_t) wide characters at p: L'a's and a terminator. */
static __attribute__((noinline, unused, no_sanitize("kernel-address"))) void
family_wstring(void *p, size_t bytes)
{
	size_t n = bytes / sizeof(wchar_t);
	for (size_t i = 0; i + 1 < n; i++)
		((volatile wchar_t *)p)[i] = L'a';
	((volatile wchar_t *)p)[n - 1] = 0;
}

/* n zero bytes at p. */
static __attribute__((noinline, unused, no_sanitize("kernel-address"))) void
family_zero(void *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		((volatile char *)p)[i] = 0;
}

/* Descriptors that never block: reads give zeros, writes vanish. */
static int family_zero_fd, family_null_fd;

static __attribute__((unused)) void family_open(void)
{
	family_zero_fd = open("/dev/zero", O_RDONLY);
	family_null_fd = open("/dev/null", O_WRONLY);
	if (family_zero_fd < 0 || family_null_fd < 0)
		kasan_test_fail("cannot open /dev/zero or /dev/null");
}

#endif
