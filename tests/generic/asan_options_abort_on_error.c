// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// ARCH: x86_64 -- it execs itself, and under qemu-user the new image would not get qemu's -L and -E
// STATUS: signal SIGABRT
// abort_on_error=1 alone stops at the first report too, as it does in an
// ASan program built without recovery (the default), where every error
// ends the program and abort_on_error says it ends by abort().
// EXPECT: BUG: KASAN: slab-out-of-bounds in asan_options_abort_on_error+0x
// EXPECT: ukasan: kasan.fault=panic set, aborting
// COUNT: 1 BUG: KASAN:
// NOT: after the first
#include "kasan_test.h"
#include "../kfence/_asan_options.h"

KASAN_TEST void asan_options_abort_on_error(void)
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
	with_asan_options(argv, "abort_on_error=1");
	asan_options_abort_on_error();
	return 0;
}
