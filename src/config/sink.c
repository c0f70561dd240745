/* The report's destination, and keeping it ours.
 *
 * A descriptor is a bare number the program may close and reuse: sshd
 * closes everything from 3 up at start and its listening socket takes the
 * first number freed. So every descriptor ukasan writes to is one it opened
 * or duplicated itself, remembered with what it refers to (device, inode)
 * and checked before each write. Where a sandbox refuses fstat, the
 * interposed close/dup family (log_fds_closed, log_fd_replaced) is the
 * word on what the program did to it. fd 2 is the program's own stderr: it
 * is written while open, unless the program closed it, and then the copy
 * of stderr taken at start is used. */
#include "sink.h"

#include <errno.h>
#include <string.h>

#include "../base/compiler.h"

#include "../platform/os.h"
#include "log.h"

struct owned {
	int fd; /* -1: none */
	enum os_fd_kind kind;
	uint64_t identity;
};

static struct owned err_copy = {-1, OS_FD_CLOSED, 0};
static enum os_fd_kind err_kind = OS_FD_UNKNOWN; /* fd 2's, last seen */
static int err_closed;                           /* by the program, through libc */

static char log_path[256];
static struct owned log_file = {-1, OS_FD_CLOSED, 0};
/* The log's directory, held from before a chroot, and the file's name in it. */
static struct owned log_dir = {-1, OS_FD_CLOSED, 0};
static int log_refused; /* this process's file could not be used: stderr */

static void own(struct owned *o, int fd)
{
	struct os_fd_info in;
	os_fd_info(fd, &in);
	o->fd = fd;
	o->kind = in.kind;
	o->identity = in.identity;
}

static void forget(struct owned *o)
{
	o->fd = -1;
}

/* The descriptor to write, with its kind; -1 when it is no longer ours. */
static int still_ours(struct owned *o, enum os_fd_kind *kind)
{
	if (o->fd < 0)
		return -1;
	struct os_fd_info in;
	os_fd_info(o->fd, &in);
	if (in.kind == OS_FD_CLOSED || (in.kind != OS_FD_UNKNOWN && in.identity != o->identity)) {
		forget(o); /* the number is the program's now: never close it */
		return -1;
	}
	*kind = in.kind == OS_FD_UNKNOWN ? o->kind : in.kind;
	return o->fd;
}

void log_init(void)
{
	struct os_fd_info in;
	os_fd_info(2, &in);
	err_kind = in.kind;
	/* Not under a filter in force from the start: it may refuse fcntl. */
	if (err_copy.fd < 0 && in.kind != OS_FD_CLOSED && !os_sandboxed()) {
		int fd = os_dup_high(2);
		if (fd >= 0)
			own(&err_copy, fd);
	}
}

void log_set_path(const char *path)
{
	if (log_file.fd >= 0)
		os_close(log_file.fd);
	if (log_dir.fd >= 0)
		os_close(log_dir.fd);
	forget(&log_file);
	forget(&log_dir);
	log_refused = 0;
	if (!path || !*path || !strcmp(path, "stderr"))
		log_path[0] = 0;
	else
		fmt_buf(log_path, sizeof(log_path), "%s", path);
}

static int stderr_fd(enum os_fd_kind *kind)
{
	if (!__atomic_load_n(&err_closed, __ATOMIC_RELAXED)) {
		struct os_fd_info in;
		os_fd_info(2, &in);
		if (in.kind != OS_FD_CLOSED) {
			if (in.kind != OS_FD_UNKNOWN)
				err_kind = in.kind;
			*kind = err_kind;
			return 2;
		}
	}
	return still_ours(&err_copy, kind);
}

static const char *errno_name(int e)
{
	switch (e) {
	case ELOOP:
		return "it is a symbolic link";
	case EPERM:
		return "it is not a regular file of ours with one name";
	case EACCES:
		return "permission denied";
	case ENOENT:
		return "no such directory";
	default:
		return "cannot open it";
	}
}

/* Created at the first line written, so that a process that reports
 * nothing leaves no file; never opened once the process may be
 * sandboxed (a filter may kill on open). */
static int log_fd(enum os_fd_kind *kind)
{
	if (!log_path[0] || log_refused)
		return -1;
	int fd = still_ours(&log_file, kind);
	if (fd >= 0 || !os_may_open_files())
		return fd;
	char full[300];
	fmt_buf(full, sizeof(full), "%s.%d", log_path, os_pid());
	enum os_fd_kind dir_kind;
	int dir = still_ours(&log_dir, &dir_kind);
	const char *slash = strrchr(full, '/');
	fd = os_open_log(dir, dir >= 0 && slash ? slash + 1 : full);
	if (fd < 0) {
		log_refused = 1;
		log_printf("ukasan: cannot open log file %s (%s); reports go to stderr\n", full,
		           errno_name(-fd));
		return -1;
	}
	own(&log_file, fd);
	*kind = log_file.kind;
	return fd;
}

void sink_write(const char *buf, size_t len)
{
	enum os_fd_kind kind = OS_FD_UNKNOWN;
	int fd = log_fd(&kind);
	if (fd >= 0 && os_write_report(fd, kind, buf, len) == 0)
		return;
	fd = stderr_fd(&kind);
	if (fd >= 0)
		os_write_report(fd, kind, buf, len);
}

/* The log file is opened now, as the sandbox will not let it be later;
 * unless no byte could be written to it there (RLIMIT_FSIZE 0, as OpenSSH
 * sets first): then the process's lines go to stderr, and it leaves no
 * empty file behind. */
void log_prepare_sandbox(void)
{
	enum os_fd_kind kind;
	if (os_fsize_limit() != 0)
		log_fd(&kind);
	stderr_fd(&kind);
}

/* After a chroot the path names another file, if any: create the file in
 * the directory held open from before, when its first line comes. */
void log_prepare_chroot(void)
{
	enum os_fd_kind kind;
	if (!log_path[0] || log_refused || still_ours(&log_file, &kind) >= 0 ||
	    still_ours(&log_dir, &kind) >= 0)
		return;
	char dir[256];
	fmt_buf(dir, sizeof(dir), "%s", log_path);
	char *slash = strrchr(dir, '/');
	if (slash == dir)
		slash[1] = 0;
	else if (slash)
		*slash = 0;
	else
		fmt_buf(dir, sizeof(dir), ".");
	int fd = os_open_dir(dir);
	if (fd >= 0)
		own(&log_dir, fd);
}

void log_after_fork(void)
{
	/* The parent's file, under the parent's pid: the child's own comes at
	 * its first line. */
	if (log_file.fd >= 0)
		os_close(log_file.fd);
	forget(&log_file);
	log_refused = 0;
}

void log_fds_closed(int lo, int hi)
{
	if (lo <= 2 && 2 <= hi)
		__atomic_store_n(&err_closed, 1, __ATOMIC_RELAXED);
	if (err_copy.fd >= lo && err_copy.fd <= hi)
		forget(&err_copy);
	if (log_file.fd >= lo && log_file.fd <= hi)
		forget(&log_file);
	if (log_dir.fd >= lo && log_dir.fd <= hi)
		forget(&log_dir);
}

void log_fd_replaced(int fd)
{
	if (fd == 2)
		__atomic_store_n(&err_closed, 0, __ATOMIC_RELAXED);
	else
		log_fds_closed(fd, fd);
}
