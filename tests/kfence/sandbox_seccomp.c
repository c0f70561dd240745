// RUN: kfence.sample_rate=1
// ARCH: x86_64 -- the filter is written for x86-64's system call numbers
// The report path of a child in OpenSSH's pre-authentication sandbox
// (see _sandbox.h): both reports reach stderr, a pipe, and the child runs
// on to its end.
// EXPECT: BUG: KFENCE: use-after-free read in read_after_free+0x
// EXPECT-RE: ^CPU: \d+ UID: \d+ PID: \d+ Comm: kfence_sandbox_$
// EXPECT: BUG: KFENCE: memory corruption in
// COUNT: 2 BUG: KFENCE:
// STDOUT: child ran on
// STDOUT: child exited with 0
#include "_sandbox.h"

int main(void)
{
	return run_sandboxed_child() ? 0 : 1;
}
