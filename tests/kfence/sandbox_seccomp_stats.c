// RUN: kfence.sample_rate=1 kfence.stats=1
// ARCH: x86_64 -- the filter is written for x86-64's system call numbers
// kfence.stats=1 in the sandboxed child (_sandbox.h): the statistics at its
// exit are written, not its death (SIGSYS for fcntl, SIGXFSZ for a write to
// a file past RLIMIT_FSIZE 0).
// EXPECT: BUG: KFENCE: use-after-free read in read_after_free+0x
// COUNT: 2 ukasan: kfence statistics of pid
// EXPECT-RE: total bugs: 2
// STDOUT: child ran on
// STDOUT: child exited with 0
#include "_sandbox.h"

int main(void)
{
	pid_t child = run_sandboxed_child();
	if (!child)
		return 1;
	expect("ukasan: kfence statistics of pid %d:", (int)child);
	return 0;
}
