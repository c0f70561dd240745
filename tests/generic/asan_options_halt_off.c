// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// ARCH: x86_64 -- it execs itself, and under qemu-user the new image would not get qemu's -L and -E
// halt_on_error=0 is how an ASan user asks to see every error of the run:
// both bugs are reported (kasan_multi_shot), and the program runs on,
// whatever abort_on_error says, as in ASan.
// EXPECT: BUG: KASAN: slab-out-of-bounds in asan_options_halt_off+0x
// EXPECT: BUG: KASAN: slab-use-after-free in asan_options_halt_off+0x
// EXPECT: done
// COUNT: 2 BUG: KASAN:
#include "kasan_test.h"
#include "../kfence/_asan_options.h"

KASAN_TEST void asan_options_halt_off(void)
{
	char *a = malloc(16);
	char *b = malloc(32);

	OPTIMIZER_HIDE_VAR(a);
	free(b);
	kasan_int_result = ((volatile char *)a)[16];
	kasan_int_result = ((volatile char *)b)[31];
	free(a);
	fprintf(stderr, "done\n");
}

int main(int argc, char **argv)
{
	(void)argc;
	with_asan_options(argv, "abort_on_error=1 halt_on_error=0");
	asan_options_halt_off();
	return 0;
}
