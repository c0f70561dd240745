// ARCH: x86_64 -- the filter and its system calls are written for x86-64
// STATUS: 0
// NOT: BUG:
// STDOUT: main returned under the filter
/* A program that installs its seccomp filter by its own system call
 * instruction, as Chromium's sandbox does: nothing tells ukasan, and its
 * preload at the defaults sees no sandbox. Here the filter kills the
 * process on open and madvise. With no sampled object live at exit, the
 * preload's exit has nothing to check and must make no system call a
 * sandbox refuses: it read libc's unwind tables (to see whether main had
 * returned) and then gave their pages back, which opened
 * /proc/self/pagemap and called madvise, and the process died of SIGSYS
 * after main returned 0. */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

#include "_seccomp_kill.h"

/* The fourth and fifth arguments 0, as prctl requires. */
static long raw_syscall3(long nr, long a, long b, long c)
{
	long ret;
	register long r10 asm("r10") = 0, r8 asm("r8") = 0;
	asm volatile("syscall"
	             : "=a"(ret)
	             : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8)
	             : "rcx", "r11", "memory");
	return ret;
}

int main(void)
{
	/* Objects made and freed before the sandbox, sampled or not. */
	for (int i = 0; i < 100; i++) {
		char *volatile p = malloc(24 + i);
		p[0] = 1;
		free(p);
	}
	static struct sock_filter insns[] = SECCOMP_KILL_ONLY(
	    SECCOMP_KILL(__NR_open), SECCOMP_KILL(__NR_openat), SECCOMP_KILL(__NR_madvise));
	static struct sock_fprog prog = SECCOMP_PROG(insns);
	if (raw_syscall3(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0) ||
	    raw_syscall3(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, (long)&prog))
		return 90;
	printf("main returned under the filter\n");
	fflush(stdout);
	return 0;
}
