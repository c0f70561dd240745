/* Another process held still and read from outside (remote.h), for `ukasan
 * leaks PID`. ptrace's seize-and-interrupt stops a thread without a
 * signal: the program's handlers, masks and signals are left alone, and a
 * thread blocked in a system call stops there with its registers as they
 * are (the call restarts when it goes on). A signal that arrives while a
 * thread is being stopped is held by the stop and handed back at the
 * detach. Memory goes through process_vm_readv and process_vm_writev, or
 * /proc/PID/mem where those are refused. */
#define _GNU_SOURCE
#include "remote.h"

#include "os.h"

#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/user.h>
#if defined(__aarch64__)
#include <asm/ptrace.h> /* struct user_pt_regs */
#endif
#include <sys/wait.h>
#include <unistd.h>

#define MAX_TASKS 16384

static int target = -1, mem_fd = -1;
static struct {
	int tid;
	int sig; /* a signal the stop held, for the detach */
} tasks[MAX_TASKS];
static size_t ntasks;

static int attached(int tid)
{
	for (size_t i = 0; i < ntasks; i++)
		if (tasks[i].tid == tid)
			return 1;
	return 0;
}

/* The registers the thread stopped with, its stack and thread pointers. */
static int thread_regs(struct os_thread *t)
{
#if defined(__x86_64__)
	struct user_regs_struct r;
	struct iovec io = {&r, sizeof(r)};
	if (ptrace(PTRACE_GETREGSET, t->tid, (void *)NT_PRSTATUS, &io) != 0)
		return -1;
	const unsigned long *w = (const unsigned long *)&r;
	size_t n = sizeof(r) / sizeof(*w);
	for (size_t i = 0; i < OS_THREAD_REGS; i++)
		t->regs[i] = i < n ? w[i] : 0;
	t->sp = r.rsp;
	t->tp = r.fs_base;
	return 0;
#elif defined(__aarch64__)
	struct user_pt_regs r;
	struct iovec io = {&r, sizeof(r)};
	if (ptrace(PTRACE_GETREGSET, t->tid, (void *)NT_PRSTATUS, &io) != 0)
		return -1;
	for (size_t i = 0; i < OS_THREAD_REGS; i++)
		t->regs[i] = i < 31 ? r.regs[i] : 0;
	t->sp = r.sp;
	uint64_t tls = 0;
	struct iovec tio = {&tls, sizeof(tls)};
	t->tp = ptrace(PTRACE_GETREGSET, t->tid, (void *)NT_ARM_TLS, &tio) == 0 ? tls : 0;
	return 0;
#else
	(void)t;
	return -1;
#endif
}

/* Seizes and stops tid: 1, 0 when it is gone, -1 (errno) when refused. */
static int stop_one(int tid, struct os_thread *t)
{
	if (ptrace(PTRACE_SEIZE, tid, 0, 0) != 0)
		return errno == ESRCH ? 0 : -1;
	if (ntasks >= MAX_TASKS) {
		ptrace(PTRACE_DETACH, tid, 0, 0);
		errno = E2BIG;
		return -1;
	}
	tasks[ntasks].tid = tid;
	tasks[ntasks++].sig = 0;
	if (ptrace(PTRACE_INTERRUPT, tid, 0, 0) != 0)
		return 0;
	for (;;) {
		int st;
		if (waitpid(tid, &st, __WALL) != tid) {
			if (errno == EINTR)
				continue;
			return 0;
		}
		if (WIFEXITED(st) || WIFSIGNALED(st)) {
			ntasks--;
			return 0;
		}
		if (!WIFSTOPPED(st))
			continue;
		/* A signal-delivery stop (not our interrupt's event stop): the
		 * signal is the program's, kept for the detach. The thread is
		 * stopped all the same. */
		if ((st >> 16) == 0 && WSTOPSIG(st) != SIGTRAP)
			tasks[ntasks - 1].sig = WSTOPSIG(st);
		break;
	}
	t->tid = tid;
	t->state = thread_regs(t) == 0 ? OS_THREAD_STOPPED : OS_THREAD_GONE;
	return 1;
}

long remote_stop(int pid, struct os_thread *out, size_t max)
{
	char path[64];
	target = pid;
	ntasks = 0;
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	size_t n = 0;
	/* Again until a pass finds no new thread: a thread not yet stopped
	 * may start another. */
	for (int fresh = 1; fresh;) {
		fresh = 0;
		DIR *d = opendir(path);
		if (!d)
			return -1;
		struct dirent *e;
		while ((e = readdir(d))) {
			char *end;
			long tid = strtol(e->d_name, &end, 10);
			if (*end || tid <= 0 || tid > 0x7fffffff || attached((int)tid))
				continue;
			if (n >= max) {
				closedir(d);
				errno = E2BIG;
				return -1;
			}
			int r = stop_one((int)tid, &out[n]);
			if (r < 0) {
				int err = errno;
				closedir(d);
				errno = err;
				return -1;
			}
			if (r > 0) {
				n++;
				fresh = 1;
			}
		}
		closedir(d);
	}
	if (!n) {
		errno = ESRCH;
		return -1;
	}
	snprintf(path, sizeof(path), "/proc/%d/mem", pid);
	mem_fd = open(path, O_RDWR | O_CLOEXEC);
	if (mem_fd < 0)
		mem_fd = open(path, O_RDONLY | O_CLOEXEC);
	return (long)n;
}

void remote_resume(void)
{
	for (size_t i = 0; i < ntasks; i++)
		ptrace(PTRACE_DETACH, tasks[i].tid, 0, (void *)(long)tasks[i].sig);
	ntasks = 0;
	if (mem_fd >= 0)
		os_close(mem_fd);
	mem_fd = -1;
}

int remote_read(void *dst, uintptr_t addr, size_t len)
{
	if (!len)
		return 0;
	if (addr + len < addr)
		return -1;
	struct iovec local = {dst, len}, remote = {(void *)addr, len};
	ssize_t got = process_vm_readv(target, &local, 1, &remote, 1, 0);
	if (got == (ssize_t)len)
		return 0;
	if (mem_fd < 0 || addr > (uintptr_t)INT64_MAX - len)
		return -1;
	return pread(mem_fd, dst, len, (off_t)addr) == (ssize_t)len ? 0 : -1;
}

int remote_write(uintptr_t addr, const void *src, size_t len)
{
	if (!len)
		return 0;
	if (addr + len < addr)
		return -1;
	struct iovec local = {(void *)src, len}, remote = {(void *)addr, len};
	if (process_vm_writev(target, &local, 1, &remote, 1, 0) == (ssize_t)len)
		return 0;
	if (mem_fd < 0 || addr > (uintptr_t)INT64_MAX - len)
		return -1;
	return pwrite(mem_fd, src, len, (off_t)addr) == (ssize_t)len ? 0 : -1;
}
