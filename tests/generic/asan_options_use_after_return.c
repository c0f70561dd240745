// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// ARCH: x86_64 -- it execs itself, and under qemu-user the new image would not get qemu's -L and -E
// ASAN_OPTIONS=detect_stack_use_after_return=1 is
// kasan.stack_use_after_return=on: a local used after its function
// returned is reported (tests/generic/stack_use_after_return.c).
// EXPECT: BUG: KASAN: stack-use-after-return in asan_options_use_after_return+0x
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"
#include "../kfence/_asan_options.h"

static int *volatile leaked;

__attribute__((noinline)) static int leak_local(int n)
{
	int local[10];
	for (int i = 0; i < 10; i++)
		local[i] = n + i;
	leaked = local;
	return local[n % 10];
}

KASAN_TEST void asan_options_use_after_return(void)
{
	kasan_int_result = leak_local(3);
	kasan_int_result = leaked[2];
}

int main(int argc, char **argv)
{
	(void)argc;
	with_asan_options(argv, "detect_stack_use_after_return=1");
	asan_options_use_after_return();
	return 0;
}
