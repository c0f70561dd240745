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
#include "../base/compiler.h"

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
	int fd = os_open_raw("/proc/self/maps", O_RDONLY);
	if (fd < 0)
		return -1;
	char buf[2048];
	struct parse p = {0, 0, 0};
	int found = 0;
	long n;
	while (!found && (n = os_read(fd, buf, sizeof(buf))) > 0)
		found = feed(&p, buf, n, addr);
	os_close(fd);
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

/* Every mapping in address order, with whether it can be accessed at all
 * (a guard is mapped with no access): fn returns 1 to stop. */
struct mapping {
	uintptr_t lo, hi;
	int open; /* readable, writable or executable */
	int writable;
};

static int each_mapping(int (*fn)(const struct mapping *m, void *ctx), void *ctx)
{
	int fd = os_open_raw("/proc/self/maps", O_RDONLY);
	if (fd < 0)
		return -1;
	char buf[2048];
	struct mapping m = {0, 0, 0, 0};
	int field = 0, col = 0, stop = 0; /* field 0 start, 1 end, 2 perms, 3 rest */
	long n;
	while (!stop && (n = os_read(fd, buf, sizeof(buf))) > 0) {
		for (long i = 0; i < n && !stop; i++) {
			char c = buf[i];
			if (c == '\n') {
				stop = field >= 2 && fn(&m, ctx);
				rt_memset(&m, 0, sizeof(m));
				field = col = 0;
				continue;
			}
			if (field == 3)
				continue;
			if (field == 2) {
				if (c == ' ' || col >= 3) {
					field = 3;
					continue;
				}
				if (c != '-' && c != 'p' && c != 's')
					m.open = 1;
				if (col++ == 1 && c == 'w')
					m.writable = 1;
				continue;
			}
			int d = c >= '0' && c <= '9'   ? c - '0'
			        : c >= 'a' && c <= 'f' ? c - 'a' + 10
			                               : -1;
			if (d < 0) {
				field++;
				continue;
			}
			if (field == 0)
				m.lo = m.lo * 16 + (uintptr_t)d;
			else
				m.hi = m.hi * 16 + (uintptr_t)d;
		}
	}
	os_close(fd);
	return 0;
}

/* Beyond this below a stack, a fault is not its growth: the kernel keeps
 * stack_guard_gap (256 pages) free under a stack that grows down. */
#define GUARD_REACH (1ul << 20)
/* How far below sp an access may be and still be the frame being made
 * (a push, a call, an aarch64 pre-indexed store, a stack probe). */
#define BELOW_SP (64ul << 10)

struct guard_search {
	uintptr_t addr;
	int state; /* 0: looking; 1: addr is in a guard, the stack is next; 2: done */
	uintptr_t lo, hi;
};

static int find_stack_above(const struct mapping *m, void *ctx)
{
	struct guard_search *g = ctx;
	if (g->state == 0 && m->hi <= g->addr)
		return 0;
	if (g->state == 0 && m->lo <= g->addr) {
		if (m->open) { /* mapped memory: whatever failed, it was not growth */
			g->state = 2;
			return 1;
		}
		g->state = 1;
		g->lo = m->hi;
		return 0;
	}
	/* The first mapping above addr, or above the guard holding it. */
	if (m->writable && (g->state == 1 ? m->lo == g->lo : m->lo - g->addr <= GUARD_REACH)) {
		g->lo = m->lo;
		g->hi = m->hi;
		g->state = 3;
	} else {
		g->state = 2;
	}
	return 1;
}

int os_stack_guard_hit(uintptr_t addr, uintptr_t sp, uintptr_t *lo, uintptr_t *hi)
{
	if (addr + BELOW_SP < sp || !os_may_open_files())
		return 0;
	struct guard_search g = {addr, 0, 0, 0};
	if (each_mapping(find_stack_above, &g) != 0 || g.state != 3)
		return 0;
	/* sp is on that stack, or has just left it downwards. */
	if (sp >= g.hi || sp + GUARD_REACH + BELOW_SP < g.lo)
		return 0;
	*lo = g.lo;
	*hi = g.hi;
	return 1;
}
