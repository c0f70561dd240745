// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// ARCH: x86_64 -- it execs itself, and under qemu-user the new image would not get qemu's -L and -E
// print_summary=0 drops the line at exit; the status stays.
// STATUS: 1
// EXPECT: BUG: KASAN: slab-out-of-bounds in asan_options_print_summary+0x
// NOT: report in this run
#include "kasan_test.h"
#include "../kfence/_asan_options.h"

KASAN_TEST void asan_options_print_summary(void)
{
	char *a = malloc(16);

	OPTIMIZER_HIDE_VAR(a);
	kasan_int_result = ((volatile char *)a)[16];
	free(a);
}

int main(int argc, char **argv)
{
	(void)argc;
	with_asan_options(argv, "print_summary=0");
	asan_options_print_summary();
	return 0;
}
