// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// ARCH: x86_64 -- it execs itself, and under qemu-user the new image would not get qemu's -L and -E
// ASAN_OPTIONS=quarantine_size_mb=0 is kasan.quarantine_size=0: a freed
// object goes straight back to the allocator, so the next allocation of
// its size gets the same memory and a read through the stale pointer is
// not caught (as tests/generic/kasan_quarantine_size_0.c).
// EXPECT: done
// COUNT: 0 BUG: KASAN:
// NOT: TEST FAILED
#include "kasan_test.h"
#include "../kfence/_asan_options.h"

KASAN_TEST void asan_options_quarantine(void)
{
	char *p = malloc(64);

	OPTIMIZER_HIDE_VAR(p);
	free(p);
	char *q = malloc(64);
	if (q != p)
		kasan_test_fail("the freed object was not reused at once");
	kasan_int_result = ((volatile char *)p)[10];
	free(q);
	fprintf(stderr, "done\n");
}

int main(int argc, char **argv)
{
	(void)argc;
	with_asan_options(argv, "quarantine_size_mb=0");
	asan_options_quarantine();
	return 0;
}
