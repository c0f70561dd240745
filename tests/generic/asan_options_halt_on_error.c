// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// ARCH: x86_64 -- it execs itself, and under qemu-user the new image would not get qemu's -L and -E
// STATUS: signal SIGABRT
// Meson runs tests with ASAN_OPTIONS=halt_on_error=1:abort_on_error=1:
// a program with two bugs stops at the first report, killed by SIGABRT
// (kasan.fault=panic), so the test fails.
// EXPECT: BUG: KASAN: slab-out-of-bounds in asan_options_halt_on_error+0x
// EXPECT: ukasan: kasan.fault=panic set, aborting
// COUNT: 1 BUG: KASAN:
// NOT: after the first
#include "kasan_test.h"
#include "../kfence/_asan_options.h"

KASAN_TEST void asan_options_halt_on_error(void)
{
	char *a = malloc(16);
	char *b = malloc(32);

	OPTIMIZER_HIDE_VAR(a);
	free(b);
	kasan_int_result = ((volatile char *)a)[16];
	fprintf(stderr, "after the first\n");
	kasan_int_result = ((volatile char *)b)[31];
	free(a);
}

int main(int argc, char **argv)
{
	(void)argc;
	with_asan_options(argv, "halt_on_error=1:abort_on_error=1:print_summary=1");
	asan_options_halt_on_error();
	return 0;
}
