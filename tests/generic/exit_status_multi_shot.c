// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// RUN: kasan_multi_shot
// With kasan_multi_shot every bug is printed, and the summary counts them.
// STATUS: 1
// COUNT: 2 BUG: KASAN: slab-out-of-bounds in exit_status_multi_shot+0x
// EXPECT-RE: ^ukasan: 2 reports in this run \(pid \d+\); exit status 1 instead of 0 \(ukasan\.exitcode\)$
// NOT: not reported
#include "kasan_test.h"

KASAN_TEST void exit_status_multi_shot(void)
{
	char *a = malloc(16);

	OPTIMIZER_HIDE_VAR(a);
	((volatile char *)a)[16] = 1;
	((volatile char *)a)[18] = 1;
	free(a);
}

int main(void)
{
	exit_status_multi_shot();
	return 0;
}
