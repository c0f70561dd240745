// MODE: generic
// VARIANTS: gcc clang gcc-outline clang-outline
// ARGS: 4
// A pointer to a block-scope array, read after the block ended: reported as
// stack-use-after-scope (ASan's name; the kernel builds without scope
// checks), with the frame and its object, at -O1 here and at -O0 below.
// EXPECT-RE: ^This frame has \d+ objects?:$
// EXPECT-RE: ^ \[\d+, \d+\) 'inner'$
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

static volatile int *leaked;

__attribute__((noinline)) static void keep(volatile int *p)
{
	leaked = p;
}

KASAN_TEST void stack_use_after_scope(int n)
{
	{
		int inner[4] = {n, n, n, n};
		keep(inner);
	}
	volatile int *p = leaked + 1;
	KASAN_EXPECT_FAIL(kasan_int_result = *p, .type = "stack-use-after-scope", .rw = "Read", .size = 4, .addr = (void *)p, .stack_object = "inner");
}

int main(int argc, char **argv)
{
	stack_use_after_scope(argc > 1 ? argv[1][0] - '0' : 1);
	return 0;
}
