/* glibc's fortified entry points (__memcpy_chk, __strcpy_chk, __read_chk...),
 * which -O2 -D_FORTIFY_SOURCE turns plain calls into: they do not go through
 * memcpy or read, so they are checked here, exactly as their plain
 * interceptors check, then handed to glibc's own, which keeps its object-size
 * check. When the check fails the call is skipped as the plain one is,
 * unless glibc's check would fail too: fortify's abort is kept. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/types.h>
#include <wchar.h>

#include "intercept.h"

REAL(void *, __memcpy_chk, void *, const void *, size_t, size_t)
REAL(void *, __memmove_chk, void *, const void *, size_t, size_t)
REAL(void *, __memset_chk, void *, int, size_t, size_t)
REAL(char *, __strcpy_chk, char *, const char *, size_t)
REAL(char *, __stpcpy_chk, char *, const char *, size_t)
REAL(char *, __strncpy_chk, char *, const char *, size_t, size_t)
REAL(char *, __stpncpy_chk, char *, const char *, size_t, size_t)
REAL(void *, __mempcpy_chk, void *, const void *, size_t, size_t)
REAL(void, __explicit_bzero_chk, void *, size_t, size_t)
REAL(char *, __strcat_chk, char *, const char *, size_t)
REAL(char *, __strncat_chk, char *, const char *, size_t, size_t)
REAL(wchar_t *, __wmemcpy_chk, wchar_t *, const wchar_t *, size_t, size_t)
REAL(wchar_t *, __wmemmove_chk, wchar_t *, const wchar_t *, size_t, size_t)
REAL(wchar_t *, __wmemset_chk, wchar_t *, wchar_t, size_t, size_t)
REAL(wchar_t *, __wcscpy_chk, wchar_t *, const wchar_t *, size_t)
REAL(wchar_t *, __wcscat_chk, wchar_t *, const wchar_t *, size_t)
REAL(wchar_t *, __wcsncpy_chk, wchar_t *, const wchar_t *, size_t, size_t)
REAL(wchar_t *, __wcsncat_chk, wchar_t *, const wchar_t *, size_t, size_t)
REAL(wchar_t *, __wcpcpy_chk, wchar_t *, const wchar_t *, size_t)
REAL(wchar_t *, __wcpncpy_chk, wchar_t *, const wchar_t *, size_t, size_t)
REAL(wchar_t *, __wmempcpy_chk, wchar_t *, const wchar_t *, size_t, size_t)
REAL(ssize_t, __read_chk, int, void *, size_t, size_t)
REAL(ssize_t, __pread_chk, int, void *, size_t, off_t, size_t)
REAL(ssize_t, __pread64_chk, int, void *, size_t, off64_t, size_t)
REAL(ssize_t, __recv_chk, int, void *, size_t, size_t, int)
REAL(ssize_t, __recvfrom_chk, int, void *, size_t, size_t, int, struct sockaddr *, socklen_t *)
REAL(size_t, __fread_chk, void *, size_t, size_t, size_t, FILE *)
REAL(char *, __fgets_chk, char *, size_t, int, FILE *)
REAL(size_t, strlen, const char *)
REAL(size_t, strnlen, const char *, size_t)
REAL(size_t, wcslen, const wchar_t *)
REAL(size_t, wcsnlen, const wchar_t *, size_t)

void *libc_memcpy(void *d, const void *s, size_t n)
{
	return get___memcpy_chk()(d, s, n, (size_t)-1);
}

void *libc_memmove(void *d, const void *s, size_t n)
{
	return get___memmove_chk()(d, s, n, (size_t)-1);
}

void *libc_memset(void *d, int c, size_t n)
{
	return get___memset_chk()(d, c, n, (size_t)-1);
}

/* After a failed check: glibc's verdict on the same call. */
static void keep_fortify(int overflows)
{
	if (overflows)
		__chk_fail();
}

static size_t min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

/* The runtime's copies into shadow memory and its own data arrive here too
 * (see __ukasan_runtime_ip): they are not checked. */
void *__memcpy_chk(void *d, const void *s, size_t n, size_t dlen)
{
	if (d != s && !__ukasan_runtime_ip(RET_IP))
		CHECK_OVERLAP("memcpy", d, n, s, n);
	if (!__ukasan_runtime_ip(RET_IP) && (!CHECK_READ(s, n) || !CHECK_WRITE(d, n))) {
		keep_fortify(n > dlen);
		return d;
	}
	return get___memcpy_chk()(d, s, n, dlen);
}

void *__memmove_chk(void *d, const void *s, size_t n, size_t dlen)
{
	if (!__ukasan_runtime_ip(RET_IP) && (!CHECK_READ(s, n) || !CHECK_WRITE(d, n))) {
		keep_fortify(n > dlen);
		return d;
	}
	return get___memmove_chk()(d, s, n, dlen);
}

void *__memset_chk(void *d, int c, size_t n, size_t dlen)
{
	if (!__ukasan_runtime_ip(RET_IP) && !CHECK_WRITE(d, n)) {
		keep_fortify(n > dlen);
		return d;
	}
	return get___memset_chk()(d, c, n, dlen);
}

char *__strcpy_chk(char *d, const char *s, size_t dlen)
{
	size_t n = get_strlen()(s) + 1;
	CHECK_OVERLAP("strcpy", d, n, s, n);
	if (!CHECK_READ(s, n) || !CHECK_WRITE(d, n)) {
		keep_fortify(n > dlen);
		return d;
	}
	return get___strcpy_chk()(d, s, dlen);
}

char *__stpcpy_chk(char *d, const char *s, size_t dlen)
{
	size_t n = get_strlen()(s) + 1;
	if (!CHECK_READ(s, n) || !CHECK_WRITE(d, n)) {
		keep_fortify(n > dlen);
		return d + n - 1;
	}
	return get___stpcpy_chk()(d, s, dlen);
}

char *__strncpy_chk(char *d, const char *s, size_t n, size_t dlen)
{
	size_t len = get_strnlen()(s, n);
	CHECK_OVERLAP("strncpy", d, min_size(len + 1, n), s, min_size(len + 1, n));
	if (!CHECK_READ(s, min_size(len + 1, n)) || !CHECK_WRITE(d, n)) {
		keep_fortify(n > dlen);
		return d;
	}
	return get___strncpy_chk()(d, s, n, dlen);
}

char *__stpncpy_chk(char *d, const char *s, size_t n, size_t dlen)
{
	size_t len = get_strnlen()(s, n);
	if (!CHECK_READ(s, min_size(len + 1, n)) || !CHECK_WRITE(d, n)) {
		keep_fortify(n > dlen);
		return d + len;
	}
	return get___stpncpy_chk()(d, s, n, dlen);
}

void *__mempcpy_chk(void *d, const void *s, size_t n, size_t dlen)
{
	if (!CHECK_READ(s, n) || !CHECK_WRITE(d, n)) {
		keep_fortify(n > dlen);
		return (char *)d + n;
	}
	return get___mempcpy_chk()(d, s, n, dlen);
}

void __explicit_bzero_chk(void *d, size_t n, size_t dlen)
{
	if (!CHECK_WRITE(d, n)) {
		keep_fortify(n > dlen);
		return;
	}
	get___explicit_bzero_chk()(d, n, dlen);
}

char *__strcat_chk(char *d, const char *s, size_t dlen)
{
	size_t dl = get_strlen()(d), sl = get_strlen()(s);
	if (sl)
		CHECK_OVERLAP("strcat", d, dl + sl + 1, s, sl + 1);
	if (!CHECK_READ(d, dl + 1) || !CHECK_READ(s, sl + 1) || !CHECK_WRITE(d + dl, sl + 1)) {
		keep_fortify(dl + sl + 1 > dlen);
		return d;
	}
	return get___strcat_chk()(d, s, dlen);
}

char *__strncat_chk(char *d, const char *s, size_t n, size_t dlen)
{
	size_t dl = get_strlen()(d), sl = get_strnlen()(s, n);
	if (sl)
		CHECK_OVERLAP("strncat", d, dl + min_size(sl + 1, n) + 1, s, min_size(sl + 1, n));
	if (!CHECK_READ(d, dl + 1) || !CHECK_READ(s, min_size(sl + 1, n)) ||
	    !CHECK_WRITE(d + dl, sl + 1)) {
		keep_fortify(dl + sl + 1 > dlen);
		return d;
	}
	return get___strncat_chk()(d, s, n, dlen);
}

/* The wide ones count wchar_t, dlen included. */
#define W sizeof(wchar_t)

wchar_t *__wmemcpy_chk(wchar_t *d, const wchar_t *s, size_t n, size_t dlen)
{
	if (!CHECK_READ(s, n * W) || !CHECK_WRITE(d, n * W)) {
		keep_fortify(n > dlen);
		return d;
	}
	return get___wmemcpy_chk()(d, s, n, dlen);
}

wchar_t *__wmemmove_chk(wchar_t *d, const wchar_t *s, size_t n, size_t dlen)
{
	if (!CHECK_READ(s, n * W) || !CHECK_WRITE(d, n * W)) {
		keep_fortify(n > dlen);
		return d;
	}
	return get___wmemmove_chk()(d, s, n, dlen);
}

wchar_t *__wmemset_chk(wchar_t *d, wchar_t c, size_t n, size_t dlen)
{
	if (!CHECK_WRITE(d, n * W)) {
		keep_fortify(n > dlen);
		return d;
	}
	return get___wmemset_chk()(d, c, n, dlen);
}

wchar_t *__wcscpy_chk(wchar_t *d, const wchar_t *s, size_t dlen)
{
	size_t n = get_wcslen()(s) + 1;
	if (!CHECK_READ(s, n * W) || !CHECK_WRITE(d, n * W)) {
		keep_fortify(n > dlen);
		return d;
	}
	return get___wcscpy_chk()(d, s, dlen);
}

wchar_t *__wcpcpy_chk(wchar_t *d, const wchar_t *s, size_t dlen)
{
	size_t n = get_wcslen()(s) + 1;
	if (!CHECK_READ(s, n * W) || !CHECK_WRITE(d, n * W)) {
		keep_fortify(n > dlen);
		return d + n - 1;
	}
	return get___wcpcpy_chk()(d, s, dlen);
}

wchar_t *__wcpncpy_chk(wchar_t *d, const wchar_t *s, size_t n, size_t dlen)
{
	size_t len = get_wcsnlen()(s, n);
	if (!CHECK_READ(s, min_size(len + 1, n) * W) || !CHECK_WRITE(d, n * W)) {
		keep_fortify(n > dlen);
		return d + len;
	}
	return get___wcpncpy_chk()(d, s, n, dlen);
}

wchar_t *__wmempcpy_chk(wchar_t *d, const wchar_t *s, size_t n, size_t dlen)
{
	if (!CHECK_READ(s, n * W) || !CHECK_WRITE(d, n * W)) {
		keep_fortify(n > dlen);
		return d + n;
	}
	return get___wmempcpy_chk()(d, s, n, dlen);
}

wchar_t *__wcscat_chk(wchar_t *d, const wchar_t *s, size_t dlen)
{
	size_t dl = get_wcslen()(d), sl = get_wcslen()(s);
	if (!CHECK_READ(d, (dl + 1) * W) || !CHECK_READ(s, (sl + 1) * W) ||
	    !CHECK_WRITE(d + dl, (sl + 1) * W)) {
		keep_fortify(dl + sl + 1 > dlen);
		return d;
	}
	return get___wcscat_chk()(d, s, dlen);
}

wchar_t *__wcsncpy_chk(wchar_t *d, const wchar_t *s, size_t n, size_t dlen)
{
	size_t len = get_wcsnlen()(s, n);
	if (!CHECK_READ(s, min_size(len + 1, n) * W) || !CHECK_WRITE(d, n * W)) {
		keep_fortify(n > dlen);
		return d;
	}
	return get___wcsncpy_chk()(d, s, n, dlen);
}

wchar_t *__wcsncat_chk(wchar_t *d, const wchar_t *s, size_t n, size_t dlen)
{
	size_t dl = get_wcslen()(d), sl = get_wcsnlen()(s, n);
	if (!CHECK_READ(d, (dl + 1) * W) || !CHECK_READ(s, min_size(sl + 1, n) * W) ||
	    !CHECK_WRITE(d + dl, (sl + 1) * W)) {
		keep_fortify(dl + sl + 1 > dlen);
		return d;
	}
	return get___wcsncat_chk()(d, s, n, dlen);
}

/* As io.c: the whole buffer before the call; a bad one fails with EFAULT. */
#define IO_CHECKED(ret, name, params, args, check, overflows, fail)                                \
	ret name params                                                                            \
	{                                                                                          \
		if (!(check)) {                                                                    \
			keep_fortify(overflows);                                                   \
			errno = EFAULT;                                                            \
			return fail;                                                               \
		}                                                                                  \
		return get_##name() args;                                                          \
	}

static size_t total(size_t size, size_t count)
{
	size_t t;
	return __builtin_mul_overflow(size, count, &t) ? 0 : t;
}

// clang-format off
IO_CHECKED(ssize_t, __read_chk, (int fd, void *buf, size_t n, size_t blen), (fd, buf, n, blen),
	CHECK_WRITE(buf, n), n > blen, -1)
IO_CHECKED(ssize_t, __pread_chk, (int fd, void *buf, size_t n, off_t off, size_t blen),
	(fd, buf, n, off, blen), CHECK_WRITE(buf, n), n > blen, -1)
IO_CHECKED(ssize_t, __pread64_chk, (int fd, void *buf, size_t n, off64_t off, size_t blen),
	(fd, buf, n, off, blen), CHECK_WRITE(buf, n), n > blen, -1)
IO_CHECKED(ssize_t, __recv_chk, (int fd, void *buf, size_t n, size_t blen, int flags),
	(fd, buf, n, blen, flags), CHECK_WRITE(buf, n), n > blen, -1)
IO_CHECKED(ssize_t, __recvfrom_chk,
	(int fd, void *buf, size_t n, size_t blen, int flags, struct sockaddr *from, socklen_t *len),
	(fd, buf, n, blen, flags, from, len), CHECK_WRITE(buf, n), n > blen, -1)
IO_CHECKED(size_t, __fread_chk, (void *buf, size_t blen, size_t size, size_t count, FILE *f),
	(buf, blen, size, count, f), CHECK_WRITE(buf, total(size, count)),
	total(size, count) > blen, 0)
IO_CHECKED(char *, __fgets_chk, (char *s, size_t blen, int n, FILE *f), (s, blen, n, f),
	n <= 0 || CHECK_WRITE(s, (size_t)n), (size_t)n > blen, NULL)
// clang-format on
