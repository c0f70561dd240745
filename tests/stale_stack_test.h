/* For the tests of stack shadow left behind by frames that never returned
 * (a cancelled thread, longjmp, a C++ exception): an uninstrumented frame
 * that fills a big local array over that memory and hands it to
 * instrumented code, which reads all of it; and a real overflow, for after. */
#ifndef STALE_STACK_TEST_H
#define STALE_STACK_TEST_H

#include <stdint.h>

/* Where the last uninstrumented_frame() array was. */
static volatile uintptr_t stale_lo, stale_hi;

/* signed char: plain char is unsigned on arm64. */
__attribute__((noinline)) static int stale_sum(const signed char *p, int n)
{
	int s = 0;
	for (int i = 0; i < n; i++)
		s += p[i];
	return s;
}

/* -8192 when every byte is read. */
__attribute__((noinline, no_sanitize("kernel-address"))) static int uninstrumented_frame(void)
{
	signed char big[16384];
	for (int i = 0; i < (int)sizeof big; i++)
		big[i] = (signed char)i;
	stale_lo = (uintptr_t)big;
	stale_hi = (uintptr_t)big + sizeof big;
	return stale_sum(big, sizeof big);
}

__attribute__((noinline, unused)) static int overflow(int i)
{
	volatile char small[8];
	small[i] = 1;
	return small[0];
}

#endif
