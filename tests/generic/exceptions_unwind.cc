// MODE: generic
// RUN-ALSO: kasan.stack_use_after_return=on
// A C++ exception thrown through instrumented frames with stack arrays:
// the compiler calls __asan_handle_no_return before __cxa_throw, so the
// frames left behind do not leave poisoned redzones for a later,
// uninstrumented frame over the same memory; a real overflow afterwards is
// still caught.
// STDOUT: caught 20
// STDOUT: sum -8192
// EXPECT: BUG: KASAN: stack-out-of-bounds in overflow+0x
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"
#include "stale_stack_test.h"

#include <stdexcept>

__attribute__((noinline)) static int deep(int n)
{
	char buf[256];
	memset(buf, n, sizeof buf);
	if (n > 0)
		return deep(n - 1) + buf[n];
	throw std::runtime_error("20");
}

int main()
{
	try {
		deep(20);
	} catch (const std::exception &e) {
		printf("caught %s\n", e.what());
	}
	printf("sum %d\n", uninstrumented_frame());
	fflush(stdout);
	volatile int past = 8; /* not a constant the compiler could fold */
	overflow(past);
	return 0;
}
