/* The calls by which a program sandboxes itself or reuses descriptors,
 * interposed so that ukasan hears of them first.
 *
 * Before a seccomp filter or a chroot, ukasan takes what
 * its report path may no longer be allowed to fetch: the task name, every
 * loaded object's symbols, the log file's descriptor, this thread's stack
 * bounds (ASan's __sanitizer_sandbox_on_notify, which Chromium calls, does
 * the same). A filter set before exec is seen at start instead
 * (platform/proc.c); one a program installs with a raw system call is not
 * seen, and its process is symbolized offline (`ukasan symbolize`).
 *
 * setrlimit and prlimit keep RLIMIT_FSIZE known where the sandbox would
 * refuse to say it. The close and dup family tell the log which of
 * ukasan's descriptors the program has closed or replaced, where a sandbox
 * refuses fstat. */
#define _GNU_SOURCE
#include <errno.h>
#include <limits.h>
#include <linux/seccomp.h>
#include <stdarg.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "../base/compiler.h"
#include "../platform/os.h"
#include "../report/report.h"
#include "../report/sink.h"
#include "../stack/stack.h"
#include "../symbolize/symbolize.h"
#include "init.h"
#include "next_alloc.h"

/* <sys/resource.h> is left out: its prototypes use glibc's enum and the
 * 64-bit names as distinct types, and these wrappers serve both. */
struct rlimit {
	unsigned long rlim_cur, rlim_max;
};
#define RLIMIT_FSIZE  1
#define RLIMIT_NOFILE 7
#define RLIM_INFINITY (~0ul)

static void *real_prctl, *real_syscall, *real_chroot, *real_setrlimit, *real_prlimit, *real_close,
    *real_close_range, *real_closefrom, *real_dup2, *real_dup3;

void sandbox_wrappers_init(void)
{
	next_symbol(&real_prctl, "prctl");
	next_symbol(&real_syscall, "syscall");
	next_symbol(&real_chroot, "chroot");
	next_symbol(&real_setrlimit, "setrlimit");
	next_symbol(&real_prlimit, "prlimit");
	next_symbol(&real_close, "close");
	next_symbol(&real_close_range, "close_range");
	next_symbol(&real_closefrom, "closefrom");
	next_symbol(&real_dup2, "dup2");
	next_symbol(&real_dup3, "dup3");
}

/* chroot: paths will resolve elsewhere, but any system call may still be
 * made; a filter: only the report path's short list. */
static void prepare(int chroot)
{
	if (!ukasan_ready() || !os_may_open_files())
		return;
	os_process_capture();
	uintptr_t lo, hi;
	stack_bounds(&lo, &hi);
	os_tid();
	report_hold();
	sym_prepare_sandbox();
	if (chroot)
		sink_prepare_chroot();
	else
		sink_prepare_sandbox();
	report_release();
}

/* Prepared before the call, in force after it: a filter may forbid the
 * preparation's own calls. */
static void sandbox_begins(int chroot)
{
	int saved = errno;
	prepare(chroot);
	errno = saved;
}

static void sandbox_began(int ok)
{
	if (ok)
		os_sandbox_enter();
}

UKASAN_EXPORT int prctl(int option, ...)
{
	va_list ap;
	va_start(ap, option);
	unsigned long a2 = va_arg(ap, unsigned long), a3 = va_arg(ap, unsigned long);
	unsigned long a4 = va_arg(ap, unsigned long), a5 = va_arg(ap, unsigned long);
	va_end(ap);
	int (*real)(int, ...) = (int (*)(int, ...))next_symbol(&real_prctl, "prctl");
	int seccomp = option == PR_SET_SECCOMP || option == PR_SET_NO_NEW_PRIVS;
	if (seccomp)
		sandbox_begins(0);
	int r = real ? real(option, a2, a3, a4, a5) : (errno = ENOSYS, -1);
	if (option == PR_SET_SECCOMP)
		sandbox_began(r == 0);
	if (option == PR_SET_NAME && r == 0 && a2)
		os_note_task_name((const char *)a2);
	return r;
}

/* libseccomp and others install filters with syscall(SYS_seccomp). */
UKASAN_EXPORT long syscall(long nr, ...)
{
	va_list ap;
	va_start(ap, nr);
	long a[6];
	for (int i = 0; i < 6; i++)
		a[i] = va_arg(ap, long);
	va_end(ap);
	long (*real)(long, ...) = (long (*)(long, ...))next_symbol(&real_syscall, "syscall");
	int filter = (nr == SYS_seccomp && a[0] == SECCOMP_SET_MODE_FILTER) ||
	             (nr == SYS_prctl && a[0] == PR_SET_SECCOMP);
	if (filter)
		sandbox_begins(0);
	long r = real(nr, a[0], a[1], a[2], a[3], a[4], a[5]);
	if (filter)
		sandbox_began(r == 0);
	return r;
}

UKASAN_EXPORT int chroot(const char *path)
{
	int (*real)(const char *) = (int (*)(const char *))next_symbol(&real_chroot, "chroot");
	sandbox_begins(1);
	return real ? real(path) : (errno = ENOSYS, -1);
}

static void limit_set(int resource, const struct rlimit *rl)
{
	if (resource == RLIMIT_FSIZE && rl)
		os_note_fsize_limit(rl->rlim_cur == RLIM_INFINITY ? OS_UNLIMITED
		                                                  : (uint64_t)rl->rlim_cur);
	if (resource == RLIMIT_NOFILE && rl)
		os_fd_reserve(); /* under the new limit */
}

UKASAN_EXPORT int setrlimit(int resource, const struct rlimit *rl)
{
	int (*real)(int, const struct rlimit *) =
	    (int (*)(int, const struct rlimit *))next_symbol(&real_setrlimit, "setrlimit");
	int r = real ? real(resource, rl) : (errno = ENOSYS, -1);
	if (r == 0)
		limit_set(resource, rl);
	return r;
}
UKASAN_EXPORT int setrlimit64(int resource, const struct rlimit *rl)
    __attribute__((alias("setrlimit")));

UKASAN_EXPORT int prlimit(pid_t pid, int resource, const struct rlimit *rl, struct rlimit *old)
{
	int (*real)(pid_t, int, const struct rlimit *, struct rlimit *) =
	    (int (*)(pid_t, int, const struct rlimit *, struct rlimit *))next_symbol(&real_prlimit,
	                                                                             "prlimit");
	int self = pid == 0 || pid == os_pid();
	int r = real ? real(pid, resource, rl, old) : (errno = ENOSYS, -1);
	if (r == 0 && self)
		limit_set(resource, rl);
	return r;
}
UKASAN_EXPORT int prlimit64(pid_t pid, int resource, const struct rlimit *rl, struct rlimit *old)
    __attribute__((alias("prlimit")));

/* AddressSanitizer's announcement, made by Chromium's sandboxes. */
UKASAN_EXPORT void __sanitizer_sandbox_on_notify(void *args)
{
	(void)args;
	sandbox_begins(0);
	os_sandbox_enter();
}

UKASAN_EXPORT int close(int fd)
{
	int (*real)(int) = (int (*)(int))next_symbol(&real_close, "close");
	int r = real(fd);
	int saved = errno;
	sink_fds_closed(fd, fd);
	errno = saved;
	return r;
}

UKASAN_EXPORT int close_range(unsigned lo, unsigned hi, int flags)
{
	int (*real)(unsigned, unsigned, int) =
	    (int (*)(unsigned, unsigned, int))next_symbol(&real_close_range, "close_range");
	int r = real ? real(lo, hi, flags) : (errno = ENOSYS, -1);
	/* CLOSE_RANGE_CLOEXEC only marks them. */
	if (r == 0 && !(flags & 4))
		sink_fds_closed(lo > INT_MAX ? INT_MAX : (int)lo, hi > INT_MAX ? INT_MAX : (int)hi);
	return r;
}

UKASAN_EXPORT void closefrom(int lo)
{
	void (*real)(int) = (void (*)(int))next_symbol(&real_closefrom, "closefrom");
	if (real)
		real(lo);
	sink_fds_closed(lo, INT_MAX);
}

UKASAN_EXPORT int dup2(int old, int fd)
{
	int (*real)(int, int) = (int (*)(int, int))next_symbol(&real_dup2, "dup2");
	int r = real(old, fd);
	if (r >= 0 && old != fd)
		sink_fd_replaced(fd);
	return r;
}

UKASAN_EXPORT int dup3(int old, int fd, int flags)
{
	int (*real)(int, int, int) = (int (*)(int, int, int))next_symbol(&real_dup3, "dup3");
	int r = real(old, fd, flags);
	if (r >= 0)
		sink_fd_replaced(fd);
	return r;
}
