/* Descriptors: what one refers to, opening a log file safely, and writing
 * a report so that a failing write can neither raise a signal in the
 * program nor end it. */
#define _GNU_SOURCE
#include "os.h"
#include "sys.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../base/compiler.h"

int os_open_read(const char *path)
{
	return open(path, O_RDONLY | O_CLOEXEC);
}

/* Straight to the kernel: the program may interpose close. */
void os_close(int fd)
{
	os_syscall(SYS_close, fd);
}

int os_dup_high(int fd)
{
	return fcntl(fd, F_DUPFD_CLOEXEC, 100);
}

void os_fd_info(int fd, struct os_fd_info *info)
{
	struct stat st;
	info->identity = 0;
	info->size = 0;
	if (os_syscall(SYS_fstat, fd, &st) != 0) {
		/* A filter that refuses fstat (OpenSSH's answers EACCES) says
		 * nothing about the descriptor. */
		info->kind = errno == EBADF ? OS_FD_CLOSED : OS_FD_UNKNOWN;
		return;
	}
	info->identity = ((uint64_t)st.st_dev << 40) ^ (uint64_t)st.st_ino ^ 1;
	info->size = (uint64_t)st.st_size;
	if (S_ISREG(st.st_mode) || S_ISBLK(st.st_mode))
		info->kind = OS_FD_FILE;
	else if (S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode))
		info->kind = OS_FD_STREAM;
	else
		info->kind = OS_FD_OTHER;
}

/* Without following a symbolic link planted at the name, only a regular
 * file with no other name, owned by us: anyone who can write to the log's
 * directory could otherwise have a privileged service append reports to a
 * file of their choosing. */
int os_open_log(int dir, const char *path)
{
	int fd = openat(dir < 0 ? AT_FDCWD : dir, path,
	                O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY, 0600);
	if (fd < 0)
		return -errno;
	struct stat st;
	int bad = 0;
	if (os_syscall(SYS_fstat, fd, &st) != 0)
		bad = errno;
	else if (!S_ISREG(st.st_mode) || st.st_nlink != 1 || st.st_uid != geteuid())
		bad = EPERM;
	if (bad) {
		os_close(fd);
		return -bad;
	}
	/* Out of the way of programs that count on their own low numbers;
	 * not under a filter, which may refuse fcntl. */
	int high = os_sandboxed() ? -1 : os_dup_high(fd);
	if (high >= 0) {
		os_close(fd);
		fd = high;
	}
	return fd;
}

int os_open_dir(const char *path)
{
	int fd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	int high = os_dup_high(fd);
	if (high >= 0) {
		os_close(fd);
		fd = high;
	}
	return fd;
}

/* A write to a pipe or socket whose reader is gone raises SIGPIPE; the
 * kernel says so beforehand as POLLERR or POLLHUP. */
static int stream_broken(int fd)
{
	struct pollfd p = {.fd = fd, .events = POLLOUT};
	struct timespec zero = {0, 0};
	if (os_syscall(SYS_ppoll, &p, 1ul, &zero, NULL, 0ul) < 0)
		return 0;
	return (p.revents & (POLLERR | POLLHUP | POLLNVAL)) != 0;
}

/* How much of len a regular file takes before RLIMIT_FSIZE, whose excess
 * raises SIGXFSZ. Where the file's position cannot be read without a
 * call a sandbox may forbid, nothing. */
static size_t file_room(int fd, enum os_fd_kind kind, size_t len)
{
	uint64_t limit = os_fsize_limit();
	if (limit == OS_UNLIMITED)
		return len;
	if (limit == 0 || os_sandboxed())
		return 0;
	struct os_fd_info now;
	if (kind == OS_FD_UNKNOWN) {
		os_fd_info(fd, &now);
		if (now.kind != OS_FD_FILE)
			return now.kind == OS_FD_CLOSED ? 0 : len;
	}
	long pos = (long)os_syscall(SYS_lseek, fd, 0l, SEEK_CUR);
	int flags = fcntl(fd, F_GETFL);
	if (pos >= 0 && flags >= 0 && (flags & O_APPEND)) {
		os_fd_info(fd, &now);
		pos = (long)now.size;
	}
	if (pos < 0 || (uint64_t)pos >= limit)
		return 0;
	return limit - (uint64_t)pos < len ? (size_t)(limit - (uint64_t)pos) : len;
}

/* Straight to the kernel: an instrumented program's write() is a checking
 * interceptor, and any program may wrap read/write with locks of its own. */
int os_write_report(int fd, enum os_fd_kind kind, const char *buf, size_t len)
{
	if (kind == OS_FD_CLOSED)
		return -1;
	if (kind == OS_FD_FILE || kind == OS_FD_UNKNOWN)
		len = file_room(fd, kind, len);
	if (kind != OS_FD_FILE && stream_broken(fd))
		return -1;
	if (!len)
		return -1;
	while (len) {
		long n = os_syscall(SYS_write, fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return -1;
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}
