#define _GNU_SOURCE
#include "os.h"
#include "sys.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "../base/compiler.h"
#include <sys/auxv.h>
#include <sys/uio.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/prctl.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;
/* glibc's own entry point: ours, named sigaction, is interposed. */
extern int __sigaction(int sig, const struct sigaction *act, struct sigaction *old);

static int to_prot(enum os_prot prot)
{
	switch (prot) {
	case OS_PROT_READ:
		return PROT_READ;
	case OS_PROT_RW:
		return PROT_READ | PROT_WRITE;
	default:
		return PROT_NONE;
	}
}

/* Here and below, system calls made directly and libc's getauxval rather
 * than libc's wrappers where a wrapper would be the only code run in its
 * 64 KiB of libc's text: the kernel maps a file's pages 64 KiB around each
 * fault, and every process the preload is in pays for each such window. */
size_t os_page_size(void)
{
	static size_t page;
	if (!page)
		page = getauxval(AT_PAGESZ) ? (size_t)getauxval(AT_PAGESZ) : 4096;
	return page;
}

/* ---- ukasan's own reservations ----
 * Kept so that a leak scan that takes the process's anonymous memory for
 * roots (kmemleak at the preload's defaults) leaves ukasan's out: KFENCE's
 * metadata holds every sampled object's address, and the scan's own work
 * list reserves gigabytes. The table may hold fewer than there are (it is
 * full, or a release took part of one), never more: a range missing here is
 * scanned, which can only hide a leak; a stale one would drop a program's
 * memory from the roots. Lock-free: the scan reads it with the other
 * threads stopped, any of them possibly here. */
#define OWN_MAX 1024
static struct {
	uintptr_t start, end; /* start 0: free; end 0: being filled */
} own[OWN_MAX];
static unsigned own_used; /* entries ever taken: the part to search */

static void own_note(void *p, size_t size)
{
	for (unsigned i = 0; i < OWN_MAX; i++) {
		uintptr_t zero = 0;
		if (__atomic_load_n(&own[i].start, __ATOMIC_RELAXED) ||
		    !__atomic_compare_exchange_n(&own[i].start, &zero, (uintptr_t)p, 0,
		                                 __ATOMIC_ACQ_REL, __ATOMIC_RELAXED))
			continue;
		__atomic_store_n(&own[i].end, (uintptr_t)p + size, __ATOMIC_RELEASE);
		unsigned used = __atomic_load_n(&own_used, __ATOMIC_RELAXED);
		while (used < i + 1 &&
		       !__atomic_compare_exchange_n(&own_used, &used, i + 1, 1, __ATOMIC_RELEASE,
		                                    __ATOMIC_RELAXED))
			;
		return;
	}
}

/* Before the unmapping: no moment where a stale entry covers memory the
 * program may map next. */
static void own_forget(uintptr_t lo, uintptr_t hi)
{
	unsigned used = __atomic_load_n(&own_used, __ATOMIC_ACQUIRE);
	for (unsigned i = 0; i < used; i++) {
		uintptr_t s = __atomic_load_n(&own[i].start, __ATOMIC_ACQUIRE);
		uintptr_t e = __atomic_load_n(&own[i].end, __ATOMIC_ACQUIRE);
		if (!s || !e || e <= lo || s >= hi)
			continue;
		__atomic_store_n(&own[i].end, 0, __ATOMIC_RELEASE);
		__atomic_store_n(&own[i].start, 0, __ATOMIC_RELEASE);
	}
}

long os_own_ranges(struct os_range *out, long max)
{
	long n = 0;
	unsigned used = __atomic_load_n(&own_used, __ATOMIC_ACQUIRE);
	for (unsigned i = 0; i < used && n < max; i++) {
		uintptr_t s = __atomic_load_n(&own[i].start, __ATOMIC_ACQUIRE);
		uintptr_t e = __atomic_load_n(&own[i].end, __ATOMIC_ACQUIRE);
		if (s && e > s) {
			out[n].start = s;
			out[n++].end = e;
		}
	}
	return n;
}

/* Straight to the kernel: libc's mmap is ukasan's own interposer in
 * generic mode, which takes the allocator's locks. */
static void *raw_mmap(void *addr, size_t size, int prot, int flags, int fd)
{
	long p = os_syscall(SYS_mmap, addr, size, prot, flags, fd, 0l);
	return p == -1 ? MAP_FAILED : (void *)p;
}

void *os_reserve(size_t size, enum os_prot prot)
{
	void *p =
	    raw_mmap(NULL, size, to_prot(prot), MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1);
	if (p == MAP_FAILED)
		return NULL;
	own_note(p, size);
	return p;
}

void *os_reserve_at(uintptr_t addr, size_t size, enum os_prot prot)
{
	void *p = raw_mmap((void *)addr, size, to_prot(prot),
	                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE | MAP_FIXED_NOREPLACE, -1);
	if (p == MAP_FAILED)
		return NULL;
	if ((uintptr_t)p != addr) { /* kernels before 4.17 treat the flag as a hint */
		os_syscall(SYS_munmap, p, size);
		return NULL;
	}
	own_note(p, size);
	return p;
}

/* Straight to the kernel: libc's munmap and madvise are ukasan's own
 * interposers in generic mode. */
void os_release(void *addr, size_t size)
{
	own_forget((uintptr_t)addr, (uintptr_t)addr + size);
	os_syscall(SYS_munmap, addr, size);
}

int os_protect(void *addr, size_t size, enum os_prot prot)
{
	return os_syscall(SYS_mprotect, addr, size, to_prot(prot)) == 0 ? 0 : -1;
}

void os_discard(void *addr, size_t size)
{
	os_syscall(SYS_madvise, addr, size, MADV_DONTNEED);
}

int os_pages_resident(void *addr, size_t size, unsigned char *vec)
{
	return os_syscall(SYS_mincore, addr, size, vec) == 0 ? 0 : -1;
}

uintptr_t os_brk_now(void)
{
	return (uintptr_t)os_syscall(SYS_brk, 0);
}

uintptr_t os_brk_start(void)
{
	char buf[1024];
	if (os_read_small("/proc/self/stat", buf, sizeof(buf)) < 0)
		return 0;
	/* The name (field 2) may hold spaces and parentheses: count from the
	 * last ')'. start_brk is field 47. */
	const char *s = strrchr(buf, ')');
	for (int field = 2; s && field < 47; field++)
		s = strchr(s + 1, ' ');
	if (!s)
		return 0;
	uintptr_t v = 0;
	for (s++; *s >= '0' && *s <= '9'; s++)
		v = v * 10 + (uintptr_t)(*s - '0');
	return v;
}

/* Cached: reports and the allocator ask for it often. Reset in a fork
 * child, whose thread has the parent thread's TLS but a new id. */
static __thread int tid_cache __attribute__((tls_model("initial-exec")));

int os_tid(void)
{
	if (__builtin_expect(!tid_cache, 0))
		tid_cache = (int)os_syscall(SYS_gettid);
	return tid_cache;
}

/* Read now: the child may sandbox itself before it first asks, and a
 * filter may refuse gettid (OpenSSH's does). */
void os_after_fork_child(void)
{
	tid_cache = (int)os_syscall(SYS_gettid);
}

int os_pid(void)
{
	return (int)os_syscall(SYS_getpid);
}

/* glibc (2.35 on) registers each thread's rseq area, where the kernel
 * keeps the CPU it runs on: read it, as sched_getcpu does, without the
 * call; a system call where there is none. */
extern const ptrdiff_t __rseq_offset;
extern const unsigned int __rseq_size;

int os_cpu(void)
{
	if (__rseq_size) {
		int cpu =
		    *(const volatile int *)((char *)__builtin_thread_pointer() + __rseq_offset + 4);
		if (cpu >= 0)
			return cpu;
	}
	unsigned cpu = 0;
	return os_syscall(SYS_getcpu, &cpu, NULL, NULL) == 0 ? (int)cpu : 0;
}

unsigned os_uid(void)
{
	return (unsigned)getuid();
}

uint64_t os_random_seed(void)
{
	uint64_t seed = 0;
	if (os_syscall(SYS_getrandom, &seed, sizeof(seed), GRND_NONBLOCK) != sizeof(seed))
		seed = os_now_ns() ^ ((uint64_t)os_tid() << 32);
	return seed | 1;
}

/* The system call, not glibc's wrapper: a page of libc's code less. */
void os_yield(void)
{
	os_syscall(SYS_sched_yield);
}

#ifndef PR_SET_TAGGED_ADDR_CTRL
#define PR_SET_TAGGED_ADDR_CTRL 55
#define PR_TAGGED_ADDR_ENABLE   (1ul << 0)
#endif
int os_tagged_addr_enable(void)
{
	return os_syscall(SYS_prctl, PR_SET_TAGGED_ADDR_CTRL, PR_TAGGED_ADDR_ENABLE, 0, 0, 0) == 0
	           ? 0
	           : -1;
}

uint64_t os_address_space_limit(void)
{
	struct rlimit rl;
	if (os_syscall(SYS_prlimit64, 0, RLIMIT_AS, NULL, &rl) != 0 || rl.rlim_cur == RLIM_INFINITY)
		return OS_UNLIMITED;
	return (uint64_t)rl.rlim_cur;
}

int os_secure_exec(void)
{
	return getauxval(AT_SECURE) != 0;
}

long os_read(int fd, void *buf, size_t len)
{
	ssize_t n;
	do
		n = os_syscall(SYS_read, fd, buf, len);
	while (n < 0 && errno == EINTR);
	return n;
}

/* Without process_vm_readv (qemu-user has none): a pipe, into which the
 * kernel copies the bytes, or fails with EFAULT. */
static size_t copy_through_pipe(void *dst, const void *src, size_t len)
{
	int fds[2];
	size_t done = 0;
	if (os_syscall(SYS_pipe2, fds, O_CLOEXEC) != 0)
		return 0;
	while (done < len) {
		uintptr_t at = (uintptr_t)src + done;
		size_t chunk = 4096 - (at & 4095);
		if (chunk > len - done)
			chunk = len - done;
		if (os_syscall(SYS_write, fds[1], (void *)at, chunk) != (long)chunk ||
		    os_syscall(SYS_read, fds[0], (char *)dst + done, chunk) != (long)chunk)
			break;
		done += chunk;
	}
	os_syscall(SYS_close, fds[0]);
	os_syscall(SYS_close, fds[1]);
	return done;
}

size_t os_copy_readable(void *dst, const void *src, size_t len)
{
	size_t done = 0;
	while (done < len) {
		/* A page at a time: the call fails whole if any part is unmapped. */
		uintptr_t at = (uintptr_t)src + done;
		size_t chunk = 4096 - (at & 4095);
		if (chunk > len - done)
			chunk = len - done;
		struct iovec local = {(char *)dst + done, chunk}, remote = {(void *)at, chunk};
		long n = os_syscall(SYS_process_vm_readv, os_syscall(SYS_getpid), &local, 1ul,
		                    &remote, 1ul, 0ul);
		if (n < 0 && errno == ENOSYS)
			return done + copy_through_pipe((char *)dst + done,
			                                (const char *)src + done, len - done);
		if (n <= 0)
			break;
		done += (size_t)n;
	}
	return done;
}

void *os_map_file(const char *path, size_t *size)
{
	int fd = os_open_read(path);
	struct stat st;
	void *p = NULL;
	if (fd < 0)
		return NULL;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_size > 0) {
		p = raw_mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd);
		if (p == MAP_FAILED)
			p = NULL;
		else
			*size = (size_t)st.st_size;
	}
	os_close(fd);
	return p;
}

int os_file_exists(const char *path)
{
	return access(path, R_OK) == 0;
}

/* A helper's environment is none of the caller's: LD_PRELOAD would run it
 * under ukasan itself, and variables the helper reads (LLVM_SYMBOLIZER_OPTS,
 * DEBUGINFOD_URLS, LD_LIBRARY_PATH...) would change the answer ukasan
 * parses, or act with the program's privileges. */
static char *const helper_env[] = {"PATH=/usr/bin:/bin", "LC_ALL=C", NULL};

/* Set-user-ID or set-group-ID, with file capabilities, or ids changed since
 * (a real id other than the effective one): a helper would run with the
 * privileges on the caller's input, so none is run. */
static int privileged(void)
{
	unsigned r, e, sv;
	if (os_secure_exec())
		return 1;
	if (os_syscall(SYS_getresuid, &r, &e, &sv) != 0 || r != e)
		return 1;
	if (os_syscall(SYS_getresgid, &r, &e, &sv) != 0 || r != e)
		return 1;
	return 0;
}

static int exec_search(const char *file, char *const argv[], char *const envp[])
{
	char path[512];
	const char *dirs = "/usr/bin:/bin:/usr/local/bin";
	if (strchr(file, '/'))
		return execve(file, argv, envp);
	for (const char *d = dirs; *d;) {
		const char *end = strchr(d, ':');
		size_t dl = end ? (size_t)(end - d) : strlen(d);
		size_t fl = strlen(file);
		if (dl + fl + 2 < sizeof(path)) {
			rt_memcpy(path, d, dl);
			path[dl] = '/';
			rt_memcpy(path + dl + 1, file, fl + 1);
			execve(path, argv, envp);
		}
		d += dl;
		if (*d == ':')
			d++;
	}
	return -1;
}

/* Kept apart so no caller variable lives across vfork. */
static __attribute__((noinline)) pid_t spawn(const char *const argv[], int out_fd, char **envp)
{
	pid_t pid = vfork();
	if (pid == 0) {
		/* By system calls: the child shares the parent's memory until
		 * execve, and ukasan's own dup2 would note fd 2 as the
		 * program's again. */
		int null = open("/dev/null", O_RDWR);
		os_syscall(SYS_dup3, out_fd, 1, 0);
		if (null >= 0) {
			os_syscall(SYS_dup3, null, 0, 0);
			os_syscall(SYS_dup3, null, 2, 0);
		}
		exec_search(argv[0], (char *const *)argv, envp);
		os_exit(127);
	}
	return pid;
}

long os_run_capture(const char *const argv[], char *out, size_t outsz, int timeout_ms)
{
	int fds[2];
	long got = 0;
	if (outsz == 0 || privileged() || os_pipe(fds) != 0)
		return -1;
	pid_t pid = spawn(argv, fds[1], (char **)helper_env);
	os_syscall(SYS_close, fds[1]);
	if (pid < 0) {
		os_syscall(SYS_close, fds[0]);
		return -1;
	}
	uint64_t deadline = os_now_ns() + (uint64_t)timeout_ms * 1000000u;
	for (;;) {
		struct pollfd pfd = {.fd = fds[0], .events = POLLIN};
		int64_t left = (int64_t)(deadline - os_now_ns()) / 1000000;
		if (left <= 0 || poll(&pfd, 1, (int)left) <= 0) {
			if (left > 0 && errno == EINTR)
				continue;
			kill(pid, SIGKILL);
			got = -1;
			break;
		}
		ssize_t n = read(fds[0], out + got, outsz - 1 - (size_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += n;
		if ((size_t)got == outsz - 1)
			break;
	}
	os_syscall(SYS_close, fds[0]);
	/* ECHILD is fine: the program's own SIGCHLD handler may reap it first. */
	while (waitpid(pid, NULL, 0) < 0 && errno == EINTR)
		;
	if (got >= 0)
		out[got] = 0;
	return got;
}

void os_die(int sig)
{
	/* Changing the disposition and signalling oneself are outside what a
	 * sandbox allows (OpenSSH's filter would kill with SIGSYS instead). */
	if (os_sandboxed())
		os_syscall(SYS_exit_group, 128 + sig);
	struct sigaction sa;
	sigset_t set;
	rt_memset(&sa, 0, sizeof(sa));
	sa.sa_handler = SIG_DFL;
	__sigaction(sig, &sa, NULL);
	sigemptyset(&set);
	sigaddset(&set, sig);
	sigprocmask(SIG_UNBLOCK, &set, NULL);
	os_syscall(SYS_tgkill, os_pid(), os_tid(), sig);
	os_exit(128 + sig);
}

/* Not _exit: the runtime interposes it to give the exit status. */
void os_exit(int status)
{
	for (;;)
		os_syscall(SYS_exit_group, status);
}

/* Parse a hex number at *s, moving past it. */
static uintptr_t hex_at(const char **s, const char *end)
{
	uintptr_t v = 0;
	for (; *s < end; (*s)++) {
		char c = **s;
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
		if (d < 0)
			break;
		v = v * 16 + (uintptr_t)d;
	}
	return v;
}

/* One line of /proc/self/smaps: a mapping's header sets whether it counts,
 * and its "Rss:" line adds to the sum. */
static void smaps_line(const char *s, const char *end, uintptr_t lo, uintptr_t hi, int *in,
                       size_t *sum)
{
	if (end - s > 4 && !memcmp(s, "Rss:", 4)) {
		size_t kb = 0;
		for (s += 4; s < end && (*s == ' ' || *s == '\t'); s++)
			;
		for (; s < end && *s >= '0' && *s <= '9'; s++)
			kb = kb * 10 + (size_t)(*s - '0');
		if (*in)
			*sum += kb << 10;
		return;
	}
	const char *p = s;
	uintptr_t beg = hex_at(&p, end);
	if (p == s || p >= end || *p != '-')
		return; /* neither a header nor Rss */
	p++;
	uintptr_t stop = hex_at(&p, end);
	if (p < end && *p == ' ')
		*in = beg >= lo && stop <= hi;
}

size_t os_resident_bytes(uintptr_t lo, uintptr_t hi)
{
	int fd = os_open_read("/proc/self/smaps");
	if (fd < 0)
		return 0;
	static char buf[8192]; /* at exit, from one thread */
	size_t have = 0, sum = 0;
	int in = 0;
	for (;;) {
		long n = os_read(fd, buf + have, sizeof(buf) - have);
		if (n <= 0)
			break;
		have += (size_t)n;
		char *s = buf, *end = buf + have, *nl;
		while ((nl = memchr(s, '\n', (size_t)(end - s)))) {
			smaps_line(s, nl, lo, hi, &in, &sum);
			s = nl + 1;
		}
		have = (size_t)(end - s);
		if (have == sizeof(buf)) /* a line longer than the buffer: skip it */
			have = 0;
		rt_memmove(buf, s, have);
	}
	os_close(fd);
	return sum;
}
