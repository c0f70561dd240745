/* Descriptors: what one refers to, opening a log file safely, and writing
 * a report so that a failing write can neither raise a signal in the
 * program nor end it. */
#define _GNU_SOURCE
#include "os.h"
#include "sys.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#include "../base/compiler.h"

/* Room for a report's descriptors when the program has used up its own
 * (RLIMIT_NOFILE): the symbolizer opens each object's ELF file to read its
 * symbols, and without them the title would name a bare address and the
 * signature (made of function names) would change. Two ways, in turn:
 * raise the soft limit for the moment, where the hard one allows; else
 * give up a spare descriptor taken at start for the purpose, just under
 * the limit then, and take it again once the report's file is closed. The
 * spare is a memfd, whose inode is its own: a program that closed the
 * number and reused it is never closed by mistake. */
static int spare = -1;
static uint64_t spare_identity;
static int spare_given;

static int nofile_limit(struct rlimit *rl)
{
	return (int)os_syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, NULL, rl);
}

/* The spare, taken from the shared slot (so that two threads never both
 * close it), if the number still holds it; -1 otherwise. */
static int claim_spare(void)
{
	int fd = __atomic_exchange_n(&spare, -1, __ATOMIC_ACQ_REL);
	if (fd < 0)
		return -1;
	struct os_fd_info in;
	os_fd_info(fd, &in);
	if (in.kind == OS_FD_CLOSED || in.identity != spare_identity)
		return -1; /* the number is the program's now: never close it */
	return fd;
}

static void keep_spare(int fd)
{
	struct os_fd_info in;
	os_fd_info(fd, &in);
	spare_identity = in.identity;
	int none = -1;
	if (!__atomic_compare_exchange_n(&spare, &none, fd, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
		os_syscall(SYS_close, fd); /* another thread's came first */
}

/* Take the spare, or move it under the soft limit: out of the way of the
 * program's low numbers, just under the limit (and under select's 1024). */
static void take_spare(void)
{
	struct rlimit rl;
	if (os_sandboxed() || nofile_limit(&rl) != 0 || rl.rlim_cur < 4)
		return;
	long at = rl.rlim_cur < 1024 ? (long)rl.rlim_cur - 1 : 1023;
	long fd = claim_spare();
	if (fd >= 0 && fd <= at) {
		keep_spare((int)fd);
		return;
	}
	/* None, or above a limit lowered since: useless there. */
	if (fd < 0)
		fd = os_syscall(SYS_memfd_create, "ukasan-spare-fd", 1u /* MFD_CLOEXEC */);
	if (fd < 0)
		return;
	long high = os_syscall(SYS_fcntl, fd, F_DUPFD_CLOEXEC, at);
	if (high < 0 && fd >= at)
		high = os_syscall(SYS_fcntl, fd, F_DUPFD_CLOEXEC, 3l);
	if (high >= 0) {
		os_syscall(SYS_close, fd);
		fd = high;
	}
	keep_spare((int)fd);
}

void os_fd_reserve(void)
{
	take_spare();
}

/* 1 with room made for one more descriptor; *raised_from holds the soft
 * limit to put back, or RLIM_INFINITY when the spare was given up. */
static int make_room(rlim_t *raised_from)
{
	struct rlimit rl;
	if (os_sandboxed() || nofile_limit(&rl) != 0)
		return 0;
	if (rl.rlim_cur < rl.rlim_max) {
		struct rlimit more = {rl.rlim_cur + 8 < rl.rlim_max ? rl.rlim_cur + 8 : rl.rlim_max,
		                      rl.rlim_max};
		if (os_syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, &more, NULL) == 0) {
			*raised_from = rl.rlim_cur;
			return 1;
		}
	}
	int fd = claim_spare();
	if (fd < 0)
		return 0;
	os_syscall(SYS_close, fd);
	__atomic_store_n(&spare_given, 1, __ATOMIC_RELEASE);
	*raised_from = RLIM_INFINITY;
	return 1;
}

static void end_room(rlim_t raised_from)
{
	struct rlimit rl;
	if (raised_from == RLIM_INFINITY || nofile_limit(&rl) != 0)
		return;
	rl.rlim_cur = raised_from;
	os_syscall(SYS_prlimit64, 0, RLIMIT_NOFILE, &rl, NULL);
}

int os_open_read(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	rlim_t was;
	if (fd < 0 && errno == EMFILE && make_room(&was)) {
		fd = open(path, O_RDONLY | O_CLOEXEC);
		end_room(was);
	}
	return fd;
}

int os_open_raw(const char *path, int flags)
{
	long fd = os_syscall(SYS_openat, AT_FDCWD, path, flags | O_CLOEXEC);
	rlim_t was;
	if (fd < 0 && errno == EMFILE && make_room(&was)) {
		fd = os_syscall(SYS_openat, AT_FDCWD, path, flags | O_CLOEXEC);
		end_room(was);
	}
	return (int)fd;
}

long os_read_small(const char *path, char *buf, size_t size)
{
	int fd = os_open_raw(path, O_RDONLY);
	if (fd < 0)
		return -1;
	long n = os_read(fd, buf, size - 1);
	os_close(fd);
	if (n <= 0)
		return -1;
	buf[n] = 0;
	return n;
}

int os_pipe(int fds[2])
{
	int r = pipe2(fds, O_CLOEXEC);
	rlim_t was;
	if (r != 0 && errno == EMFILE && make_room(&was)) {
		r = pipe2(fds, O_CLOEXEC);
		end_room(was);
	}
	return r;
}

/* Straight to the kernel: the program may interpose close. */
void os_close(int fd)
{
	os_syscall(SYS_close, fd);
	if (__atomic_exchange_n(&spare_given, 0, __ATOMIC_ACQ_REL))
		take_spare();
}

int os_dup_high(int fd)
{
	return (int)os_syscall(SYS_fcntl, fd, F_DUPFD_CLOEXEC, 100);
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
 * file of their choosing. Non-blocking: a FIFO planted at the name would
 * hold the program in open until someone reads it (with no reader the
 * open fails, ENXIO; with one, fstat below refuses it); O_NONBLOCK does
 * nothing to a regular file's writes. */
int os_open_log(int dir, const char *path)
{
	int fd = openat(
	    dir < 0 ? AT_FDCWD : dir, path,
	    O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY | O_NONBLOCK, 0600);
	if (fd < 0)
		return errno == ENXIO ? -EPERM : -errno;
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

/* The bytes RLIMIT_FSIZE leaves a regular file from where the next write
 * lands (a write past it raises SIGXFSZ, which ends a program that did not
 * block it); OS_UNLIMITED for no limit, or for what is not a regular file.
 * The limit is read again for each write, by the system call (a program
 * may lower it at any time, by a raw prlimit too), while the process is
 * free; once it may be sandboxed, a finite limit leaves no room, as the
 * file's position would cost calls a filter may forbid. */
static uint64_t file_room(int fd, enum os_fd_kind kind)
{
	uint64_t limit = os_fsize_limit();
	if (limit == OS_UNLIMITED)
		return OS_UNLIMITED;
	if (limit == 0 || os_sandboxed())
		return 0;
	struct os_fd_info now;
	if (kind == OS_FD_UNKNOWN) {
		os_fd_info(fd, &now);
		if (now.kind != OS_FD_FILE)
			return now.kind == OS_FD_CLOSED ? 0 : OS_UNLIMITED;
	}
	long pos = (long)os_syscall(SYS_lseek, fd, 0l, SEEK_CUR);
	long flags = (long)os_syscall(SYS_fcntl, fd, (long)F_GETFL);
	if (pos >= 0 && flags >= 0 && (flags & O_APPEND)) {
		os_fd_info(fd, &now);
		pos = (long)now.size;
	}
	return pos < 0 || (uint64_t)pos >= limit ? 0 : limit - (uint64_t)pos;
}

/* The kernel's signal set, one bit per signal (8 bytes on every
 * architecture ukasan runs on). */
#define SIG_BIT(sig) (1ul << ((sig)-1))

/* A write of a regular file under a finite limit, with SIGXFSZ blocked for
 * this thread: if another writer moved the file's end past the room
 * measured, the write fails with EFBIG instead of ending the program, and
 * the signal it left pending is taken back, unless one was pending before
 * (the program's own, blocked). */
static long write_under_limit(int fd, const char *buf, size_t len)
{
	unsigned long set = SIG_BIT(SIGXFSZ), old = 0, pending = 0;
	int blocked = os_syscall(SYS_rt_sigprocmask, SIG_BLOCK, &set, &old, sizeof(set)) == 0;
	if (blocked)
		os_syscall(SYS_rt_sigpending, &pending, sizeof(pending));
	long n = os_syscall(SYS_write, fd, buf, len);
	int e = errno;
	if (blocked && n < 0 && e == EFBIG && !(pending & set)) {
		struct timespec zero = {0, 0};
		os_syscall(SYS_rt_sigtimedwait, &set, NULL, &zero, sizeof(set));
	}
	if (blocked)
		os_syscall(SYS_rt_sigprocmask, SIG_SETMASK, &old, NULL, sizeof(old));
	errno = e;
	return n;
}

/* Straight to the kernel: an instrumented program's write() is a checking
 * interceptor, and any program may wrap read/write with locks of its own. */
int os_write_report(int fd, enum os_fd_kind kind, const char *buf, size_t len, size_t *cut)
{
	*cut = 0;
	if (kind == OS_FD_CLOSED)
		return -1;
	uint64_t room = OS_UNLIMITED;
	if (kind == OS_FD_FILE || kind == OS_FD_UNKNOWN)
		room = file_room(fd, kind);
	if (room != OS_UNLIMITED && room < len) {
		*cut = len - (size_t)room;
		len = (size_t)room;
	}
	if (kind != OS_FD_FILE && stream_broken(fd)) {
		*cut = 0;
		return -1;
	}
	if (!len)
		return -1;
	int written = 0;
	while (len) {
		long n = room == OS_UNLIMITED ? os_syscall(SYS_write, fd, buf, len)
		                              : write_under_limit(fd, buf, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == EFBIG) {
			*cut += len; /* the file grew meanwhile: what is left has no room */
			return written ? 0 : -1;
		}
		if (n <= 0)
			return -1;
		written = 1;
		buf += n;
		len -= (size_t)n;
		if (len && room != OS_UNLIMITED) {
			*cut += len; /* at the limit: one more write would raise SIGXFSZ */
			return 0;
		}
	}
	return 0;
}
