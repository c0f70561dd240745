/* Calls that fill or drain a program buffer: the buffer is checked before
 * the kernel or stdio touches it, as the kernel's copy_{to,from}_user checks
 * are. A bad buffer is reported and the call fails (EFAULT, which is what
 * the kernel itself answers for memory it cannot use) without touching it. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <sys/socket.h>
#include <sys/uio.h>
#include <unistd.h>

#include "intercept.h"

REAL(ssize_t, read, int, void *, size_t)
REAL(ssize_t, write, int, const void *, size_t)
REAL(ssize_t, pread, int, void *, size_t, off_t)
REAL(ssize_t, pwrite, int, const void *, size_t, off_t)
REAL(ssize_t, pread64, int, void *, size_t, off64_t)
REAL(ssize_t, pwrite64, int, const void *, size_t, off64_t)
REAL(ssize_t, recv, int, void *, size_t, int)
REAL(ssize_t, send, int, const void *, size_t, int)
REAL(ssize_t, recvfrom, int, void *, size_t, int, struct sockaddr *, socklen_t *)
REAL(ssize_t, sendto, int, const void *, size_t, int, const struct sockaddr *, socklen_t)
REAL(size_t, fread, void *, size_t, size_t, FILE *)
REAL(size_t, fwrite, const void *, size_t, size_t, FILE *)
REAL(char *, fgets, char *, int, FILE *)
REAL(ssize_t, readv, int, const struct iovec *, int)
REAL(ssize_t, writev, int, const struct iovec *, int)
REAL(ssize_t, recvmsg, int, struct msghdr *, int)
REAL(ssize_t, sendmsg, int, const struct msghdr *, int)

/* size * count, or 0 when it overflows: glibc then fails the call itself. */
static size_t total(size_t size, size_t count)
{
	size_t t;
	return __builtin_mul_overflow(size, count, &t) ? 0 : t;
}

/* The vector itself is read; each buffer is then checked as read() or
 * write() checks its one. Reported from the caller of the intercepted call. */
static int check_iov(const struct iovec *iov, size_t n, int write, uintptr_t ip)
{
	if (!__ukasan_check_range((uintptr_t)iov, n * sizeof(*iov), 0, ip))
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!__ukasan_check_range((uintptr_t)iov[i].iov_base, iov[i].iov_len, write, ip))
			return 0;
	return 1;
}

/* ret name params: when the check fails (it has reported), the call fails
 * with EFAULT and returns fail; else glibc's does the work. */
#define CHECKED(ret, name, params, args, check, fail)                                              \
	ret name params                                                                            \
	{                                                                                          \
		if (!(check)) {                                                                    \
			errno = EFAULT;                                                            \
			return fail;                                                               \
		}                                                                                  \
		return get_##name() args;                                                          \
	}

// clang-format off
CHECKED(ssize_t, read, (int fd, void *buf, size_t n), (fd, buf, n), CHECK_WRITE(buf, n), -1)
CHECKED(ssize_t, write, (int fd, const void *buf, size_t n), (fd, buf, n), CHECK_READ(buf, n), -1)
CHECKED(ssize_t, pread, (int fd, void *buf, size_t n, off_t off), (fd, buf, n, off),
	CHECK_WRITE(buf, n), -1)
CHECKED(ssize_t, pwrite, (int fd, const void *buf, size_t n, off_t off), (fd, buf, n, off),
	CHECK_READ(buf, n), -1)
/* What programs built with _FILE_OFFSET_BITS=64 call. */
CHECKED(ssize_t, pread64, (int fd, void *buf, size_t n, off64_t off), (fd, buf, n, off),
	CHECK_WRITE(buf, n), -1)
CHECKED(ssize_t, pwrite64, (int fd, const void *buf, size_t n, off64_t off), (fd, buf, n, off),
	CHECK_READ(buf, n), -1)
CHECKED(ssize_t, recv, (int fd, void *buf, size_t n, int flags), (fd, buf, n, flags),
	CHECK_WRITE(buf, n), -1)
CHECKED(ssize_t, send, (int fd, const void *buf, size_t n, int flags), (fd, buf, n, flags),
	CHECK_READ(buf, n), -1)
CHECKED(ssize_t, recvfrom,
	(int fd, void *buf, size_t n, int flags, struct sockaddr *from, socklen_t *len),
	(fd, buf, n, flags, from, len), CHECK_WRITE(buf, n), -1)
CHECKED(ssize_t, sendto,
	(int fd, const void *buf, size_t n, int flags, const struct sockaddr *to, socklen_t len),
	(fd, buf, n, flags, to, len), CHECK_READ(buf, n), -1)
CHECKED(size_t, fread, (void *buf, size_t size, size_t count, FILE *f), (buf, size, count, f),
	CHECK_WRITE(buf, total(size, count)), 0)
CHECKED(size_t, fwrite, (const void *buf, size_t size, size_t count, FILE *f),
	(buf, size, count, f), CHECK_READ(buf, total(size, count)), 0)
CHECKED(char *, fgets, (char *s, int n, FILE *f), (s, n, f),
	n <= 0 || CHECK_WRITE(s, (size_t)n), NULL)
CHECKED(ssize_t, readv, (int fd, const struct iovec *iov, int n), (fd, iov, n),
	n <= 0 || check_iov(iov, (size_t)n, 1, RET_IP), -1)
CHECKED(ssize_t, writev, (int fd, const struct iovec *iov, int n), (fd, iov, n),
	n <= 0 || check_iov(iov, (size_t)n, 0, RET_IP), -1)
CHECKED(ssize_t, recvmsg, (int fd, struct msghdr *m, int flags), (fd, m, flags),
	CHECK_READ(m, sizeof(*m)) && check_iov(m->msg_iov, m->msg_iovlen, 1, RET_IP), -1)
CHECKED(ssize_t, sendmsg, (int fd, const struct msghdr *m, int flags), (fd, m, flags),
	CHECK_READ(m, sizeof(*m)) && check_iov(m->msg_iov, m->msg_iovlen, 0, RET_IP), -1)
// clang-format on
