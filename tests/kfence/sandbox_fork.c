// ARCH: x86_64 -- the filter is written for x86-64's system call numbers
// A process that sandboxes itself and then forks (a server's worker
// pool): the filter kills on openat, which ukasan's fork handler must not
// call in the child (it reads /proc/self/task only while files may be
// opened). Each child runs to exit(0).
// STDOUT: 3 children exited 0
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "_seccomp_kill.h"

int main(void)
{
	static struct sock_filter insns[] = SECCOMP_KILL_ONLY(SECCOMP_KILL(__NR_openat));
	static struct sock_fprog prog = SECCOMP_PROG(insns);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) ||
	    prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &prog))
		return 2;
	int ok = 0;
	for (int i = 0; i < 3; i++) {
		pid_t pid = fork();
		if (pid == 0) {
			char *volatile p = malloc(32);
			free(p);
			_exit(0);
		}
		int status;
		if (pid > 0 && waitpid(pid, &status, 0) == pid && WIFEXITED(status) &&
		    WEXITSTATUS(status) == 0)
			ok++;
		else if (pid > 0)
			fprintf(stderr, "child %d: status 0x%x\n", i, status);
	}
	printf("%d children exited 0\n", ok);
	return 0;
}
