/* System calls that fill or drain a program buffer: the buffer is checked
 * before the kernel touches it, as the kernel's copy_{to,from}_user checks
 * are. A bad buffer is reported and the call fails with EFAULT, which is
 * what the kernel itself answers for memory it cannot use. */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <unistd.h>

#include "intercept.h"

static ssize_t (*real_read)(int, void *, size_t);
static ssize_t (*real_write)(int, const void *, size_t);

ssize_t read(int fd, void *buf, size_t n)
{
	if (!real_read)
		real_read = (ssize_t(*)(int, void *, size_t))dlsym(RTLD_NEXT, "read");
	if (!CHECK_WRITE(buf, n)) {
		errno = EFAULT;
		return -1;
	}
	return real_read(fd, buf, n);
}

ssize_t write(int fd, const void *buf, size_t n)
{
	if (!real_write)
		real_write = (ssize_t(*)(int, const void *, size_t))dlsym(RTLD_NEXT, "write");
	if (!CHECK_READ(buf, n)) {
		errno = EFAULT;
		return -1;
	}
	return real_write(fd, buf, n);
}
