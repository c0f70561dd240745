// RUN: kfence.sample_rate=1
// ARCH: x86_64 -- the filter is written for x86-64's system call numbers; it execs itself
// CFLAGS: -O1 -pthread
// A seccomp filter in force from exec (systemd's SystemCallFilter=), here
// one that kills on signalling a thread: the sampled leak check at the
// preload's defaults, which nobody asked for, is not made in a sandboxed
// program (its stop signals and /proc reads could be refused by a kill),
// and the program ends as it would without ukasan, though a sampled object
// is lost and a second thread runs. Without a filter the same program's
// leak is reported (preload_sampled.c).
// STATUS: 0
// NOT: BUG: memory leak
// STDOUT: ran on under the filter
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "_seccomp_kill.h"
#include "leak_test.h"

LEAK_TEST void lose_one(void)
{
	char *p = malloc(40);
	strcpy(p, "lost");
	HIDE(p);
}

static void *idle(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

int main(int argc, char **argv)
{
	if (argc > 1) {
		pthread_t t;
		if (pthread_create(&t, NULL, idle, NULL))
			return 92;
		run_deep(lose_one);
		clear_stack();
		printf("ran on under the filter\n");
		return 0;
	}
	static struct sock_filter insns[] =
	    SECCOMP_KILL_ONLY(SECCOMP_KILL(__NR_tgkill), SECCOMP_KILL(__NR_tkill),
	                      SECCOMP_KILL(__NR_rt_tgsigqueueinfo));
	static struct sock_fprog prog = SECCOMP_PROG(insns);
	/* By raw system calls, as a service manager does before exec. */
	if (syscall(SYS_prctl, PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog))
		return 90;
	fflush(stdout);
	execl(argv[0], argv[0], "again", (char *)NULL);
	return 91;
}
