/* Calls that fill or drain a program buffer through a file descriptor:
 * read, write and their positioned and vectored forms. The buffer is
 * checked before the kernel touches it, as the kernel's copy_{to,from}_user
 * checks are (io.h). */
#define _GNU_SOURCE
#include <limits.h>
#include <string.h>
#include <sys/uio.h>
#include <unistd.h>

#include "io.h"

LIBC(strlen)

size_t io_strlen(const char *s)
{
	return s ? get_strlen()(s) : 0;
}

int io_check_iov(const struct iovec *iov, long n, int write, uintptr_t ip)
{
	if (!iov || n <= 0 || n > IOV_MAX)
		return 1;
	if (!__ukasan_check_range((uintptr_t)iov, (size_t)n * sizeof(*iov), 0, ip))
		return 0;
	for (int i = 0; i < n; i++)
		if (!__ukasan_check_range((uintptr_t)iov[i].iov_base, iov[i].iov_len, write, ip))
			return 0;
	return 1;
}

// clang-format off
/* libukasan.so reads its symbolizer's answers with read(). */
CHECKED(ssize_t, read, (int fd, void *buf, size_t n), (fd, buf, n),
	FROM_RUNTIME || CHECK_WRITE(buf, n), -1)
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
CHECKED(ssize_t, readv, (int fd, const struct iovec *iov, int n), (fd, iov, n),
	io_check_iov(iov, n, 1, RET_IP), -1)
CHECKED(ssize_t, writev, (int fd, const struct iovec *iov, int n), (fd, iov, n),
	io_check_iov(iov, n, 0, RET_IP), -1)
CHECKED(ssize_t, preadv, (int fd, const struct iovec *iov, int n, off_t off), (fd, iov, n, off),
	io_check_iov(iov, n, 1, RET_IP), -1)
CHECKED(ssize_t, pwritev, (int fd, const struct iovec *iov, int n, off_t off), (fd, iov, n, off),
	io_check_iov(iov, n, 0, RET_IP), -1)
CHECKED(ssize_t, preadv64, (int fd, const struct iovec *iov, int n, off64_t off),
	(fd, iov, n, off), io_check_iov(iov, n, 1, RET_IP), -1)
CHECKED(ssize_t, pwritev64, (int fd, const struct iovec *iov, int n, off64_t off),
	(fd, iov, n, off), io_check_iov(iov, n, 0, RET_IP), -1)
CHECKED(ssize_t, preadv2, (int fd, const struct iovec *iov, int n, off_t off, int flags),
	(fd, iov, n, off, flags), io_check_iov(iov, n, 1, RET_IP), -1)
CHECKED(ssize_t, pwritev2, (int fd, const struct iovec *iov, int n, off_t off, int flags),
	(fd, iov, n, off, flags), io_check_iov(iov, n, 0, RET_IP), -1)
CHECKED(ssize_t, preadv64v2, (int fd, const struct iovec *iov, int n, off64_t off, int flags),
	(fd, iov, n, off, flags), io_check_iov(iov, n, 1, RET_IP), -1)
CHECKED(ssize_t, pwritev64v2, (int fd, const struct iovec *iov, int n, off64_t off, int flags),
	(fd, iov, n, off, flags), io_check_iov(iov, n, 0, RET_IP), -1)
/* The local buffers are this process's; the remote vector is read, but
 * the memory it names is the other process's. */
#define CHECK_VM(local, nl, remote, nr, write)                                                     \
	(io_check_iov(local, (long)(nl), write, RET_IP) &&                                         \
	 ((nr) > IOV_MAX || CHECK_READ(remote, (nr) * sizeof(*(remote)))))
CHECKED(ssize_t, process_vm_readv,
	(pid_t pid, const struct iovec *local, unsigned long nl, const struct iovec *remote,
	 unsigned long nr, unsigned long flags),
	(pid, local, nl, remote, nr, flags), CHECK_VM(local, nl, remote, nr, 1), -1)
CHECKED(ssize_t, process_vm_writev,
	(pid_t pid, const struct iovec *local, unsigned long nl, const struct iovec *remote,
	 unsigned long nr, unsigned long flags),
	(pid, local, nl, remote, nr, flags), CHECK_VM(local, nl, remote, nr, 0), -1)
// clang-format on
