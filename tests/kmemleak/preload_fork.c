// A plain gcc program under the preload with kmemleak=on: a child made by
// fork leaks an object and exits; its check at exit reports it with the
// leaking function, and the child's status is 1.
// RUN: kmemleak=on
// RUN-ALSO: kmemleak=on kfence.sample_interval=0
// CFLAGS: -O1
// EXPECT-RE: unreferenced object 0x[0-9a-f]{16} \(size 56\):(\n.*){5,7}\n    \[<[0-9a-f]+>\] child_leaks\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kmemleak/preload_fork.c:\d+
// COUNT: 1 unreferenced object 0x
// STDOUT: child status 1
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "leak_test.h"

LEAK_TEST void child_leaks(void)
{
	char *p = malloc(56);
	HIDE(p);
	memset(p, 3, 56);
	HIDE(p);
}

int main(void)
{
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		run_deep(child_leaks);
		clear_stack();
		exit(0);
	}
	int st;
	waitpid(pid, &st, 0);
	printf("child status %d\n", WIFEXITED(st) ? WEXITSTATUS(st) : -1);
	return 0;
}
