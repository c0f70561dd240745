// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// RUN: ukasan.exitcode=42
// STATUS: 42
// EXPECT: BUG: KASAN: slab-out-of-bounds in exit_status_exitcode+0x
// EXPECT-RE: ^ukasan: 1 report in this run \(pid \d+\); exit status 42 instead of 0 \(ukasan\.exitcode\)$
#include "kasan_test.h"

KASAN_TEST void exit_status_exitcode(void)
{
	char *a = malloc(16);

	OPTIMIZER_HIDE_VAR(a);
	kasan_int_result = ((volatile char *)a)[16];
	free(a);
}

int main(void)
{
	exit_status_exitcode();
	return 0;
}
