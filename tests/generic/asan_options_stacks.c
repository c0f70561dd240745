// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// ARCH: x86_64 -- it execs itself, and under qemu-user the new image would not get qemu's -L and -E
// ASAN_OPTIONS=malloc_context_size=0 records no allocation or free stacks
// (kasan.stacktrace=off), and symbolize=0 leaves frames as module+offset
// with the build-id, for ukasan symbolize (ukasan.symbolize=off).
// EXPECT: BUG: KASAN: slab-use-after-free in asan_options_stacks+0x
// EXPECT-RE: ^ \[<[0-9a-f]+>\] asan_options_stacks\+0x[0-9a-f]+/0x[0-9a-f]+ \[\S+\+0x[0-9a-f]+ [0-9a-f]+\]$
// EXPECT-RE: ^Allocated by task \d+:\n ?\(stack is not available\)$
// EXPECT-RE: ^Freed by task \d+:\n ?\(stack is not available\)$
// COUNT: 1 BUG: KASAN:
// NOT: tests/generic/asan_options_stacks.c:
#include "kasan_test.h"
#include "../kfence/_asan_options.h"

KASAN_TEST void asan_options_stacks(void)
{
	char *a = malloc(40);

	OPTIMIZER_HIDE_VAR(a);
	free(a);
	kasan_int_result = ((volatile char *)a)[0];
}

int main(int argc, char **argv)
{
	(void)argc;
	with_asan_options(argv, "malloc_context_size=0 symbolize=0");
	asan_options_stacks();
	return 0;
}
