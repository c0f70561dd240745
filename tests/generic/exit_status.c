// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// A run that printed a report ends with exit status 1 (ukasan.exitcode,
// auto: 1 with KASAN on) where the program returned 0, so that ctest,
// meson and make check fail; the program runs on after the report, and
// what it wrote to stdout is still flushed. The one-shot default (the
// kernel's) prints the first bug; the summary line counts the second.
// STATUS: 1
// EXPECT: BUG: KASAN: slab-out-of-bounds in exit_status+0x
// EXPECT-RE: ^ukasan: 1 report in this run \(pid \d+\); 1 more bad access not reported \(kasan_multi_shot reports each\); exit status 1 instead of 0 \(ukasan\.exitcode\)$
// COUNT: 1 BUG: KASAN:
// COUNT: 1 ukasan: 1 report
// STDOUT: after both bugs
#include "kasan_test.h"

#include <stdio.h>

KASAN_TEST void exit_status(void)
{
	char *a = malloc(16);

	OPTIMIZER_HIDE_VAR(a);
	((volatile char *)a)[16] = 1;
	((volatile char *)a)[17] = 1;
	printf("after both bugs\n");
	free(a);
}

int main(void)
{
	exit_status();
	return 0;
}
