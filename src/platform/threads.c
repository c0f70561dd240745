/* Holding the other threads still for kmemleak's scan. LSan ptraces them
 * from a helper process; here each thread is sent a real-time signal whose
 * handler saves the interrupted registers and waits on a futex until the
 * scan is done, which needs no helper, no ptrace permission (Yama, seccomp,
 * containers) and works under qemu-user. The signal is the highest real-time
 * one the program leaves at its default; our handler stays installed after
 * the first scan, so a thread that blocked the signal and takes it late
 * returns at once instead of dying of it. A thread that blocks it (read from
 * its /proc status) is not waited for: its stack pointer comes from
 * /proc/self/task/TID/syscall when it sits in a system call. Where /proc
 * shows another mask than the program's (qemu-user), every thread is
 * signalled, and one that does not come is not scanned. */
#define _GNU_SOURCE
#include "threads.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <signal.h>
#include <string.h>
#include <ucontext.h>

#include "../base/compiler.h"
#include "os.h"
#include "sys.h"

extern int __sigaction(int sig, const struct sigaction *act, struct sigaction *old);

static uint64_t hash_path(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 1099511628211ull;
	return h | 1;
}

static int contains(const char *s, size_t n, const char *what)
{
	for (size_t i = 0; i < n; i++) {
		size_t j = 0;
		while (what[j] && i + j < n && s[i + j] == what[j])
			j++;
		if (!what[j])
			return 1;
	}
	return 0;
}

static unsigned long hex(const char **p, const char *end)
{
	unsigned long v = 0;
	for (; *p < end; (*p)++) {
		char c = **p;
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
		if (d < 0)
			break;
		v = v * 16 + (unsigned long)d;
	}
	return v;
}

/* One line: "start-end perms offset dev inode   path". */
static void parse_line(const char *s, const char *e, struct os_map *m)
{
	const char *p = s;
	m->start = hex(&p, e);
	p++;
	m->end = hex(&p, e);
	p++;
	m->flags = 0;
	if (p + 4 <= e) {
		m->flags |= p[0] == 'r' ? OS_MAP_R : 0;
		m->flags |= p[1] == 'w' ? OS_MAP_W : 0;
		m->flags |= p[2] == 'x' ? OS_MAP_X : 0;
		m->flags |= p[3] == 's' ? OS_MAP_SHARED : 0;
	}
	/* The path follows the perms, offset, dev and inode fields. */
	for (int field = 0; field < 4 && p < e; field++) {
		while (p < e && *p != ' ')
			p++;
		while (p < e && *p == ' ')
			p++;
	}
	m->path_hash = p < e ? hash_path(p, (size_t)(e - p)) : 0;
	if (p < e && *p == '/') {
		m->flags |= OS_MAP_FILE;
		if (contains(p, (size_t)(e - p), "/ld-linux") ||
		    contains(p, (size_t)(e - p), "/ld64.so") ||
		    contains(p, (size_t)(e - p), "/ld-2."))
			m->flags |= OS_MAP_LINKER;
	} else if (p < e && contains(p, (size_t)(e - p), "[heap]"))
		m->flags |= OS_MAP_HEAP;
	else if (p < e && contains(p, (size_t)(e - p), "[stack]"))
		m->flags |= OS_MAP_STACK;
	else if (p < e && *p == '[')
		m->flags |= OS_MAP_SPECIAL;
}

long os_maps_read(struct os_map *out, size_t max)
{
	return os_maps_read_path("/proc/self/maps", out, max);
}

long os_maps_read_path(const char *path, struct os_map *out, size_t max)
{
	int fd = os_open_raw(path, O_RDONLY);
	if (fd < 0)
		return -1;
	char buf[8192];
	size_t have = 0, n = 0;
	long got;
	while ((got = os_read(fd, buf + have, sizeof(buf) - have)) > 0) {
		have += (size_t)got;
		size_t done = 0;
		for (size_t i = 0; i < have; i++) {
			if (buf[i] != '\n')
				continue;
			if (n < max)
				parse_line(buf + done, buf + i, &out[n++]);
			done = i + 1;
		}
		rt_memmove(buf, buf + done, have - done);
		have -= done;
		if (have == sizeof(buf)) /* a line longer than the buffer: drop it */
			have = 0;
	}
	os_close(fd);
	return (long)n;
}

int os_resident(uintptr_t addr, size_t len, unsigned char *vec)
{
	return os_syscall(SYS_mincore, addr, len, vec) == 0 ? 0 : -1;
}

uintptr_t os_thread_pointer(void)
{
	uintptr_t tp;
#if defined(__x86_64__)
	__asm__ volatile("mov %%fs:0, %0" : "=r"(tp));
#elif defined(__aarch64__)
	__asm__ volatile("mrs %0, tpidr_el0" : "=r"(tp));
#else
	tp = 0;
#endif
	return tp;
}

static int stop_sig;
static struct os_thread *slots;
static size_t nslots;
static int stopping;    /* a stop is in progress */
static int resume_word; /* futex: bumped to let the threads go */
static int in_handler;  /* threads not yet back out of the handler */
/* When the program handles every real-time signal (Go's runtime does), one
 * of them is borrowed for a stop: its handler, kept here, gets every
 * delivery that is not a stop's, and is put back at the resume. */
static int borrowed, probing;
static struct sigaction program_action;

static void chain(int sig, siginfo_t *info, void *uctx)
{
	if (program_action.sa_flags & SA_SIGINFO)
		program_action.sa_sigaction(sig, info, uctx);
	else if (program_action.sa_handler != SIG_DFL && program_action.sa_handler != SIG_IGN)
		program_action.sa_handler(sig);
}

static void on_stop(int sig, siginfo_t *info, void *uctx)
{
	__atomic_add_fetch(&in_handler, 1, __ATOMIC_ACQ_REL);
	int word = __atomic_load_n(&resume_word, __ATOMIC_ACQUIRE);
	struct os_thread *t = NULL;
	if (__atomic_load_n(&stopping, __ATOMIC_ACQUIRE)) {
		int tid = os_tid();
		for (size_t i = 0; i < __atomic_load_n(&nslots, __ATOMIC_ACQUIRE); i++)
			if (slots[i].tid == tid)
				t = &slots[i];
	}
	if (!t || __atomic_load_n(&t->state, __ATOMIC_ACQUIRE) != OS_THREAD_WAITING) {
		__atomic_sub_fetch(&in_handler, 1, __ATOMIC_ACQ_REL);
		if (!t && __atomic_load_n(&borrowed, __ATOMIC_ACQUIRE) &&
		    !__atomic_load_n(&probing, __ATOMIC_ACQUIRE))
			chain(sig, info, uctx); /* the program's own signal */
		return;
	}
	/* Claimed before its registers are written: a scan that gave up
	 * waiting leaves it alone from then on, and waits for it to finish.
	 * Too late (taken for blocking: its sp alone is used), it still holds
	 * still until the scan is done. */
	int expect = OS_THREAD_WAITING;
	if (!__atomic_compare_exchange_n(&t->state, &expect, OS_THREAD_FILLING, 0, __ATOMIC_ACQ_REL,
	                                 __ATOMIC_ACQUIRE))
		goto hold;
	const ucontext_t *uc = uctx;
#if defined(__x86_64__)
	for (int i = 0; i < NGREG && i < OS_THREAD_REGS; i++)
		t->regs[i] = (uintptr_t)uc->uc_mcontext.gregs[i];
	t->sp = (uintptr_t)uc->uc_mcontext.gregs[REG_RSP];
#elif defined(__aarch64__)
	for (int i = 0; i < 31; i++)
		t->regs[i] = (uintptr_t)uc->uc_mcontext.regs[i];
	t->sp = (uintptr_t)uc->uc_mcontext.sp;
	t->regs[31] = t->sp;
#endif
	t->tp = os_thread_pointer();
	__atomic_store_n(&t->state, OS_THREAD_STOPPED, __ATOMIC_RELEASE);
hold:
	/* Read after the bump, the word would wait forever: stopping is
	 * cleared before it. */
	while (__atomic_load_n(&resume_word, __ATOMIC_ACQUIRE) == word &&
	       __atomic_load_n(&stopping, __ATOMIC_ACQUIRE))
		os_syscall(SYS_futex, &resume_word, FUTEX_WAIT_PRIVATE, word, NULL);
	__atomic_sub_fetch(&in_handler, 1, __ATOMIC_ACQ_REL);
}

/* Installs on_stop for sig and checks that it can be sent (qemu-user keeps
 * the last two real-time signals for itself). Sent to this thread now, the
 * handler returns at once: no stop is in progress. */
static int take(int sig)
{
	struct sigaction sa;
	rt_memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_stop;
	sa.sa_flags = SA_SIGINFO | SA_RESTART | SA_ONSTACK;
	sigfillset(&sa.sa_mask);
	if (__sigaction(sig, &sa, NULL) != 0)
		return 0;
	__atomic_store_n(&probing, 1, __ATOMIC_RELEASE);
	int sent = os_syscall(SYS_tgkill, os_pid(), os_tid(), sig) == 0;
	__atomic_store_n(&probing, 0, __ATOMIC_RELEASE);
	return sent;
}

/* The highest real-time signal the program leaves alone, once; when it
 * handles them all, the highest one, borrowed until the resume. */
static int choose_signal(void)
{
	if (stop_sig)
		return stop_sig;
	struct sigaction old, dfl;
	rt_memset(&dfl, 0, sizeof(dfl));
	dfl.sa_handler = SIG_DFL;
	for (int sig = SIGRTMAX; sig > SIGRTMIN + 4; sig--) {
		if (__sigaction(sig, NULL, &old) != 0 || old.sa_handler != SIG_DFL)
			continue;
		if (take(sig))
			return stop_sig = sig;
		__sigaction(sig, &dfl, NULL);
	}
	for (int sig = SIGRTMAX; sig > SIGRTMIN + 4; sig--) {
		if (__sigaction(sig, NULL, &program_action) != 0)
			continue;
		__atomic_store_n(&borrowed, 1, __ATOMIC_RELEASE);
		if (take(sig))
			return stop_sig = sig;
		__sigaction(sig, &program_action, NULL);
		__atomic_store_n(&borrowed, 0, __ATOMIC_RELEASE);
	}
	return 0;
}

static void fmt_task_path(char *out, size_t cap, int tid, const char *name)
{
	static const char head[] = "/proc/self/task/";
	char digits[16];
	int nd = 0;
	do
		digits[nd++] = (char)('0' + tid % 10);
	while ((tid /= 10) && nd < 15);
	size_t n = 0;
	for (size_t i = 0; head[i] && n + 1 < cap; i++)
		out[n++] = head[i];
	while (nd && n + 1 < cap)
		out[n++] = digits[--nd];
	if (n + 1 < cap)
		out[n++] = '/';
	for (size_t i = 0; name[i] && n + 1 < cap; i++)
		out[n++] = name[i];
	out[n] = 0;
}

/* Reads a small /proc file of a task into buf (NUL-terminated). */
static long task_file(int tid, const char *name, char *buf, size_t cap)
{
	char path[64];
	fmt_task_path(path, sizeof(path), tid, name);
	int fd = os_open_raw(path, O_RDONLY);
	if (fd < 0)
		return -1;
	long n = os_read(fd, buf, cap - 1);
	os_close(fd);
	if (n < 0)
		return -1;
	buf[n] = 0;
	return n;
}

/* Whether the task blocks sig: its status's SigBlk mask. */
static int task_blocks(int tid, int sig)
{
	char buf[2048];
	if (task_file(tid, "status", buf, sizeof(buf)) < 0)
		return 0;
	const char *p = buf;
	while (*p && !(p[0] == 'S' && p[1] == 'i' && p[2] == 'g' && p[3] == 'B' && p[4] == 'l'))
		p++;
	if (!*p)
		return 0;
	p += 7;
	while (*p == '\t' || *p == ' ')
		p++;
	const char *e = p;
	while ((*e >= '0' && *e <= '9') || (*e >= 'a' && *e <= 'f'))
		e++;
	unsigned long mask = hex(&p, e);
	return (int)((mask >> (sig - 1)) & 1);
}

/* A task in a system call: its user stack pointer, the second-last field
 * of /proc/.../syscall ("nr args... sp pc"); 0 when running or unknown. */
static uintptr_t task_sp(int tid)
{
	char buf[256];
	long n = task_file(tid, "syscall", buf, sizeof(buf));
	if (n <= 0 || buf[0] == 'r')
		return 0;
	const char *f[10];
	int nf = 0;
	for (char *p = buf; *p && nf < 10;) {
		while (*p == ' ' || *p == '\n')
			p++;
		if (!*p)
			break;
		f[nf++] = p;
		while (*p && *p != ' ' && *p != '\n')
			p++;
	}
	if (nf < 3)
		return 0;
	const char *p = f[nf - 2];
	if (p[0] == '0' && p[1] == 'x')
		p += 2;
	return hex(&p, p + 16);
}

struct dirent64_raw {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

/* Calls fn for each task of the process but self; the sum of what fn
 * returns. */
static size_t each_task(int self, size_t (*fn)(int tid, void *arg), void *arg)
{
	int fd = (int)os_syscall(SYS_openat, AT_FDCWD, "/proc/self/task",
	                         O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	char buf[4096] __attribute__((aligned(8)));
	size_t sum = 0;
	long n;
	while ((n = os_syscall(SYS_getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n;) {
			struct dirent64_raw *d = (struct dirent64_raw *)(buf + off);
			off += d->reclen;
			int tid = 0;
			for (const char *c = d->name; *c >= '0' && *c <= '9'; c++)
				tid = tid * 10 + (*c - '0');
			if (tid && tid != self)
				sum += fn(tid, arg);
		}
	}
	os_close(fd);
	return sum;
}

/* The tasks there before the program ran, other than the one starting it:
 * none natively; under qemu-user the emulator's own (its RCU thread), which
 * take no guest signal and were waited for to the deadline at every scan,
 * half a second of each arm64 test. Left out only where /proc's masks are
 * not the program's (an emulator). */
static int foreign[4];
static int nforeign;

static size_t note_foreign(int tid, void *arg)
{
	(void)arg;
	if (nforeign < (int)(sizeof(foreign) / sizeof(foreign[0])))
		foreign[nforeign++] = tid;
	return 1;
}

void os_threads_note_existing(void)
{
	/* A sandboxed parent's child: its filter may kill on openat. */
	if (!os_may_open_files())
		return;
	nforeign = 0;
	each_task(os_tid(), note_foreign, NULL);
}

static int proc_true;

static size_t add_slot(int tid, void *arg)
{
	size_t max = *(size_t *)arg;
	for (int i = 0; i < nforeign && !proc_true; i++)
		if (foreign[i] == tid)
			return 0;
	for (size_t i = 0; i < nslots; i++)
		if (slots[i].tid == tid)
			return 0;
	if (nslots >= max)
		return 0;
	struct os_thread *t = &slots[nslots];
	rt_memset(t, 0, sizeof(*t));
	t->tid = tid;
	t->state = OS_THREAD_WAITING;
	__atomic_store_n(&nslots, nslots + 1, __ATOMIC_RELEASE);
	return 1;
}

/* Adds the tasks not yet in slots; the number added. */
static size_t list_tasks(size_t max, int self)
{
	return each_task(self, add_slot, &max);
}

/* Whether /proc's view of a task's signal mask and system call is the
 * program's own. Under qemu-user it is not: /proc/self/task/TID/status
 * shows the emulator's host mask (which blocks our signal in every guest
 * thread) and .../syscall the host's stack pointer. Checked on this
 * thread, with the signal blocked and then unblocked by a raw system call:
 * natively the SigBlk bit follows both times. */
static int proc_masks_true(int self, int sig)
{
	static int known; /* 1 true, 2 false */
	if (known)
		return known == 1;
	uint64_t old, bit = 1ull << (sig - 1), set;
	if (os_syscall(SYS_rt_sigprocmask, SIG_BLOCK, NULL, &old, 8) != 0)
		return 1;
	set = old | bit;
	os_syscall(SYS_rt_sigprocmask, SIG_SETMASK, &set, NULL, 8);
	int blocked = task_blocks(self, sig);
	set = old & ~bit;
	os_syscall(SYS_rt_sigprocmask, SIG_SETMASK, &set, NULL, 8);
	int open = !task_blocks(self, sig);
	os_syscall(SYS_rt_sigprocmask, SIG_SETMASK, &old, NULL, 8);
	known = blocked && open ? 1 : 2;
	return known == 1;
}

static void signal_new(size_t from, int pid, int sig)
{
	for (size_t i = from; i < nslots; i++) {
		struct os_thread *t = &slots[i];
		/* Where /proc cannot say, every thread is signalled: one that
		 * blocks it is not waited for past the deadline. One that
		 * blocks it while running (not in a system call) has no stack
		 * pointer to give; it is signalled too, and waited for: Go's
		 * runtime blocks every signal in a thread it is starting or
		 * ending, for a moment, and such a thread took a leak check
		 * away (1 run in 100). */
		if (proc_true && task_blocks(t->tid, sig) && (t->sp = task_sp(t->tid)) != 0) {
			t->state = OS_THREAD_BLOCKING;
		} else if (os_syscall(SYS_tgkill, pid, t->tid, sig) != 0) {
			if (errno == ESRCH)
				t->state = OS_THREAD_GONE;
			else { /* not stopped: scanned as one that blocks it */
				t->sp = proc_true ? task_sp(t->tid) : 0;
				t->state = OS_THREAD_BLOCKING;
			}
		}
	}
}

/* Waits for the signalled threads, up to about half a second each round:
 * one that neither arrives nor blocks the signal (it runs a handler that
 * masks it, say) is treated as blocking it. */
static void wait_stopped(size_t from)
{
	uint64_t deadline = os_now_ns() + 500000000ull;
	for (;;) {
		int waiting = 0;
		for (size_t i = from; i < nslots; i++)
			if (__atomic_load_n(&slots[i].state, __ATOMIC_ACQUIRE) ==
			    OS_THREAD_WAITING) {
				char buf[8];
				if (task_file(slots[i].tid, "stat", buf, sizeof(buf)) < 0)
					slots[i].state = OS_THREAD_GONE;
				else
					waiting = 1;
			}
		if (!waiting)
			return;
		if (os_now_ns() > deadline)
			break;
		os_yield();
	}
	for (size_t i = from; i < nslots; i++) {
		int expect = OS_THREAD_WAITING;
		uintptr_t sp = proc_true ? task_sp(slots[i].tid) : 0;
		/* Under an emulator the thread that never comes is taken for
		 * one of the emulator's own (qemu-user's RCU thread is among
		 * the tasks, and takes no guest signal): left out. Written
		 * only when taken from the handler: a thread that arrived
		 * keeps the stack pointer it saved. */
		if (__atomic_compare_exchange_n(&slots[i].state, &expect,
		                                proc_true ? OS_THREAD_BLOCKING : OS_THREAD_GONE, 0,
		                                __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE))
			slots[i].sp = sp;
	}
	/* One caught saving its registers is let finish. */
	for (size_t i = from; i < nslots; i++)
		while (__atomic_load_n(&slots[i].state, __ATOMIC_ACQUIRE) == OS_THREAD_FILLING)
			os_yield();
}

long os_threads_stop(struct os_thread *out, size_t max)
{
	int sig = choose_signal();
	if (!sig)
		return -1;
	int self = os_tid(), pid = os_pid();
	proc_true = proc_masks_true(self, sig);
	slots = out;
	__atomic_store_n(&nslots, 0, __ATOMIC_RELEASE);
	__atomic_store_n(&stopping, 1, __ATOMIC_RELEASE);
	/* Threads may start threads until they are stopped: list again until
	 * no new one shows up. */
	for (int round = 0; round < 8; round++) {
		size_t from = nslots;
		if (!list_tasks(max, self))
			break;
		signal_new(from, pid, sig);
		wait_stopped(from);
	}
	return (long)nslots;
}

void os_threads_resume(void)
{
	__atomic_store_n(&stopping, 0, __ATOMIC_RELEASE);
	__atomic_add_fetch(&resume_word, 1, __ATOMIC_ACQ_REL);
	os_syscall(SYS_futex, &resume_word, FUTEX_WAKE_PRIVATE, 0x7fffffff);
	/* The slots are the caller's: no thread may still be writing them. */
	while (__atomic_load_n(&in_handler, __ATOMIC_ACQUIRE))
		os_yield();
	if (__atomic_load_n(&borrowed, __ATOMIC_ACQUIRE)) {
		__sigaction(stop_sig, &program_action, NULL);
		__atomic_store_n(&borrowed, 0, __ATOMIC_RELEASE);
		stop_sig = 0;
	}
}
