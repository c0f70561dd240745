// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// main returning 256 ends with status 0 (the kernel keeps the low 8 bits):
// after a report it must become ukasan.exitcode's 1, as a return of 0 does
// (ASan's stack-buffer-overflow-with-position test returns 256).
// STATUS: 1
// EXPECT: BUG: KASAN: slab-use-after-free in exit_status_256+0x
// EXPECT-RE: ^ukasan: 1 report in this run \(pid \d+\); exit status 1 instead of 0 \(ukasan.exitcode\)$
#include "kasan_test.h"

KASAN_TEST int exit_status_256(void)
{
	char *a = malloc(16);

	OPTIMIZER_HIDE_VAR(a);
	free(a);
	return (((volatile char *)a)[3] & 0) + 256;
}

int main(void)
{
	return exit_status_256();
}
