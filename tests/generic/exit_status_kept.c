// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// A status the program chose itself is kept: only 0 becomes ukasan.exitcode.
// STATUS: 3
// EXPECT: BUG: KASAN: slab-use-after-free in exit_status_kept+0x
// EXPECT-RE: ^ukasan: 1 report in this run \(pid \d+\)$
// NOT: instead of
#include "kasan_test.h"

KASAN_TEST int exit_status_kept(void)
{
	char *a = malloc(16);

	OPTIMIZER_HIDE_VAR(a);
	free(a);
	return ((volatile char *)a)[3] + 3;
}

int main(void)
{
	return exit_status_kept();
}
