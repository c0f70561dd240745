// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// ARCH: x86_64 -- it execs itself, and under qemu-user the new image would not get qemu's -L and -E
// RUN: kasan.quarantine_size=1M kasan.fault=report
// UKASAN_OPTIONS is read after ASAN_OPTIONS and wins: quarantine_size_mb=0
// and halt_on_error=1 are overridden, so the freed object is held back, the
// read after free is reported, and the program runs on. The key that
// UKASAN_OPTIONS leaves alone still applies: malloc_context_size=0, no
// allocation or free stacks.
// EXPECT: BUG: KASAN: slab-use-after-free in asan_options_overridden+0x
// EXPECT-RE: ^Allocated by task \d+:\n ?\(stack is not available\)$
// EXPECT: done
// COUNT: 1 BUG: KASAN:
// NOT: aborting
#include "kasan_test.h"
#include "../kfence/_asan_options.h"

KASAN_TEST void asan_options_overridden(void)
{
	char *p = malloc(64);

	OPTIMIZER_HIDE_VAR(p);
	free(p);
	char *q = malloc(64);
	kasan_int_result = ((volatile char *)p)[10];
	free(q);
	fprintf(stderr, "done\n");
}

int main(int argc, char **argv)
{
	(void)argc;
	with_asan_options(argv, "quarantine_size_mb=0:halt_on_error=1:malloc_context_size=0");
	asan_options_overridden();
	return 0;
}
