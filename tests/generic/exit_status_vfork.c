// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// A child of vfork shares the parent's memory until it execs or leaves:
// leaving by _exit must not mark the parent's run as finished, nor take its
// count. Here the parent reports, a vfork child leaves with _exit(7), and
// the parent still ends with status 1 and one summary line, its own.
// STATUS: 1
// EXPECT: BUG: KASAN: slab-out-of-bounds in exit_status_vfork+0x
// EXPECT: vfork child: exit status 7
// EXPECT-RE: ^ukasan: 1 report in this run \(pid \d+\); exit status 1 instead of 0 \(ukasan\.exitcode\)$
// COUNT: 1 report in this run
#include "kasan_test.h"

#include <sys/wait.h>

KASAN_TEST void exit_status_vfork(void)
{
	char *a = malloc(16);

	OPTIMIZER_HIDE_VAR(a);
	kasan_int_result = ((volatile char *)a)[16];
	free(a);
}

int main(void)
{
	int status;
	exit_status_vfork();
	pid_t pid = vfork();
	if (pid == 0)
		_exit(7);
	waitpid(pid, &status, 0);
	fprintf(stderr, "vfork child: exit status %d\n", WEXITSTATUS(status));
	return 0;
}
