// MODE: generic
// A C++ exception thrown through instrumented frames with stack arrays:
// the compiler calls __asan_handle_no_return before __cxa_throw, so the
// frames left behind do not leave poisoned redzones for a later,
// uninstrumented frame over the same memory; a real overflow afterwards is
// still caught.
// STDOUT: caught 20
// STDOUT: sum -8192
// EXPECT: BUG: KASAN: stack-out-of-bounds in overflow(int)+0x
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

#include <stdexcept>

__attribute__((noinline)) static int deep(int n)
{
	char buf[256];
	memset(buf, n, sizeof buf);
	if (n > 0)
		return deep(n - 1) + buf[n];
	throw std::runtime_error("20");
}

__attribute__((noinline)) static int sum(const char *p, int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += p[i];
	return s;
}

__attribute__((noinline, no_sanitize("kernel-address"))) static int uninstrumented()
{
	char big[16384];
	for (int i = 0; i < (int)sizeof big; i++)
		big[i] = (char)i;
	return sum(big, sizeof big);
}

__attribute__((noinline)) static int overflow(int i)
{
	volatile char small[8];
	small[i] = 1;
	return small[0];
}

int main()
{
	try {
		deep(20);
	} catch (const std::exception &e) {
		printf("caught %s\n", e.what());
	}
	printf("sum %d\n", uninstrumented());
	fflush(stdout);
	volatile int past = 8; /* not a constant the compiler could fold */
	overflow(past);
	return 0;
}
