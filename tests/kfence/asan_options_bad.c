// RUN: kfence.sample_rate=1
// ARCH: x86_64 -- it execs itself, and under qemu-user the new image would not get qemu's -L and -E
// A bad value of an ASAN_OPTIONS key that means something here is one
// line naming the key, and the program runs on as if it were absent:
// halt_on_error=maybe does not make the report below fatal. Keys with no
// meaning here are not checked (handle_abort=banana), as ASan does not
// check keys it does not know.
// EXPECT: ukasan: invalid value 'maybe' for halt_on_error in ASAN_OPTIONS (expected 0 or 1); ignored
// EXPECT: ukasan: invalid value 'lots' for quarantine_size_mb in ASAN_OPTIONS (expected a whole number from -1 to 1048576); ignored
// EXPECT: ukasan: invalid value '300' for exitcode in ASAN_OPTIONS (expected a whole number from 0 to 255); ignored
// EXPECT: ukasan: invalid value '' for log_path in ASAN_OPTIONS (expected a path shorter than 256 bytes); ignored
// EXPECT: BUG: KFENCE: use-after-free read in read_after_free+0x
// COUNT: 5 ukasan:
// COUNT: 4 in ASAN_OPTIONS
// STDOUT: still running
#include "kfence_test.h"
#include "_asan_options.h"

int main(int argc, char **argv)
{
	(void)argc;
	with_asan_options(argv, "halt_on_error=maybe:quarantine_size_mb=lots:exitcode=300:"
	                        "log_path=:handle_abort=banana:verbosity=x");
	report_use_after_free();
	printf("still running\n");
	return 0;
}
