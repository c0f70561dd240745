// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// The count is per process: a child that reports and leaves by _exit(0)
// ends with status 1; its parent, which printed nothing, keeps 0, and a
// later child of a parent that did report starts from zero too.
// STATUS: 0
// EXPECT: BUG: KASAN: slab-out-of-bounds in exit_status_fork+0x
// EXPECT: ukasan: 1 report in this run
// EXPECT: first child: exit status 1
// EXPECT: second child: exit status 0
// COUNT: 1 ukasan: 1 report
#include "kasan_test.h"

#include <sys/wait.h>

KASAN_TEST void exit_status_fork(void)
{
	char *a = malloc(16);

	OPTIMIZER_HIDE_VAR(a);
	kasan_int_result = ((volatile char *)a)[16];
	free(a);
}

static int child(int bug)
{
	int status;
	pid_t pid = fork();
	if (pid == 0) {
		if (bug)
			exit_status_fork();
		_exit(0);
	}
	waitpid(pid, &status, 0);
	return WIFEXITED(status) ? WEXITSTATUS(status) : 100 + WTERMSIG(status);
}

int main(void)
{
	fprintf(stderr, "first child: exit status %d\n", child(1));
	fprintf(stderr, "second child: exit status %d\n", child(0));
	return 0;
}
