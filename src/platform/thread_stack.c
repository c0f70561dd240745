/* A thread's stack bounds, from the kernel's list of mappings. glibc's
 * pthread_getattr_np takes the thread's own lock and allocates while it
 * holds it: called from an allocation that glibc made inside that same
 * function (Rust's runtime and the JVM ask for their stacks this way), it
 * waited on itself forever. Reading /proc/self/maps with raw system calls
 * takes no lock of anyone's and allocates nothing; it costs a few tens of
 * microseconds, once per thread. */
#define _GNU_SOURCE
#include "os.h"
#include "sys.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

struct parse {
	int field; /* 0: start, 1: end, 2: the rest of the line */
	uintptr_t start, end;
};

/* Feeds one chunk; returns 1 when the mapping that holds addr is complete
 * in p->start/end. Lines may be split across chunks. */
static int feed(struct parse *p, const char *buf, long n, uintptr_t addr)
{
	for (long i = 0; i < n; i++) {
		char c = buf[i];
		if (c == '\n') {
			p->field = 0;
			p->start = p->end = 0;
			continue;
		}
		if (p->field == 2)
			continue;
		if (c == '-' && p->field == 0) {
			p->field = 1;
			continue;
		}
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
		if (d < 0) {
			if (p->field == 1 && addr >= p->start && addr < p->end)
				return 1;
			p->field = 2;
			continue;
		}
		if (p->field == 0)
			p->start = p->start * 16 + (uintptr_t)d;
		else
			p->end = p->end * 16 + (uintptr_t)d;
	}
	return 0;
}

static int mapping_of(uintptr_t addr, uintptr_t *lo, uintptr_t *hi)
{
	int fd = (int)os_syscall(SYS_openat, AT_FDCWD, "/proc/self/maps", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	char buf[2048];
	struct parse p = {0, 0, 0};
	int found = 0;
	long n;
	while (!found && (n = os_read(fd, buf, sizeof(buf))) > 0)
		found = feed(&p, buf, n, addr);
	os_syscall(SYS_close, fd);
	if (!found)
		return -1;
	*lo = p.start;
	*hi = p.end;
	return 0;
}

int os_thread_stack(uintptr_t sp, uintptr_t *lo, uintptr_t *hi)
{
	if (mapping_of(sp, lo, hi) != 0)
		return -1;
	/* On a signal stack: good for this capture, not the thread's. */
	stack_t ss;
	if (os_syscall(SYS_sigaltstack, NULL, &ss) == 0 && (ss.ss_flags & SS_ONSTACK))
		return 1;
	/* The main thread's stack grows down as it is used: its low bound is
	 * where the limit lets it grow, not where it reaches today. */
	if (os_tid() == os_pid()) {
		struct rlimit rl;
		uintptr_t most = 1ul << 30;
		if (os_syscall(SYS_getrlimit, RLIMIT_STACK, &rl) == 0 && rl.rlim_cur < most)
			most = rl.rlim_cur;
		if (*hi - *lo < most)
			*lo = *hi - most;
	}
	return 0;
}
