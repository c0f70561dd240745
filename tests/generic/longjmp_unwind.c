// MODE: generic
// RUN-ALSO: kasan.stack_use_after_return=on
// longjmp out of instrumented frames that have stack arrays: their
// redzones are never unpoisoned by their own epilogues. The compiler calls
// __asan_handle_no_return before longjmp, which clears the shadow of the
// stack being left; a later uninstrumented frame over the same memory gives
// no false report, and a real overflow afterwards is still caught.
// STDOUT: sum -8192
// EXPECT: BUG: KASAN: stack-out-of-bounds in overflow+0x
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"
#include "stale_stack_test.h"

#include <setjmp.h>

static jmp_buf env;

__attribute__((noinline)) static int deep(int n)
{
	char buf[256];
	memset(buf, n, sizeof buf);
	if (n > 0)
		return deep(n - 1) + buf[n];
	longjmp(env, 1);
}

int main(void)
{
	if (!setjmp(env))
		deep(20);
	printf("sum %d\n", uninstrumented_frame());
	fflush(stdout);
	volatile int past = 8; /* not a constant the compiler could fold */
	overflow(past);
	return 0;
}
