// RUN: kfence.sample_rate=1
// ARCH: x86_64 -- it execs itself, and under qemu-user the new image would not get qemu's -L and -E
// STATUS: 1
// ASAN_OPTIONS=halt_on_error=1 stops a preloaded program at its first
// KFENCE report, as kfence.fault=panic does: the second bug is never
// reached. Without abort_on_error=1 it ends as ASan's does on Linux, by
// exit with exitcode's status (1), not SIGABRT.
// EXPECT: BUG: KFENCE: use-after-free read in read_after_free+0x
// EXPECT: ukasan: kfence.fault=panic set, exiting
// COUNT: 1 BUG: KFENCE
// NOT: after the first
#include "kfence_test.h"
#include "_asan_options.h"

int main(int argc, char **argv)
{
	(void)argc;
	with_asan_options(argv, "halt_on_error=1");
	report_use_after_free();
	fprintf(stderr, "after the first\n");
	report_use_after_free();
	return 0;
}
