// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// ARCH: x86_64 -- it execs itself, and under qemu-user the new image would not get qemu's -L and -E
// halt_on_error=1 without abort_on_error: as ASan on Linux, the first
// report ends the run with exitcode's status (23 here), not SIGABRT.
// STATUS: 23
// EXPECT: BUG: KASAN: slab-out-of-bounds in asan_options_halt_exit+0x
// EXPECT: ukasan: kasan.fault=panic set, exiting
// COUNT: 1 BUG: KASAN:
// NOT: after the first
#include "kasan_test.h"
#include "../kfence/_asan_options.h"

KASAN_TEST void asan_options_halt_exit(void)
{
	char *a = malloc(16);

	OPTIMIZER_HIDE_VAR(a);
	kasan_int_result = ((volatile char *)a)[16];
	fprintf(stderr, "after the first\n");
	free(a);
}

int main(int argc, char **argv)
{
	(void)argc;
	with_asan_options(argv, "halt_on_error=1:exitcode=23");
	asan_options_halt_exit();
	return 0;
}
