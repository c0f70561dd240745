// MODE: generic
// RUN: kasan.quarantine_size=0
// With kasan.quarantine_size=0 a freed object goes straight back to the
// allocator, its shadow with it: a read right after the free is not caught,
// and the next allocation of the same size gets the same memory (glibc's
// per-thread cache is last-in, first-out), so the stale pointer then
// reads a live object.
// EXPECT: done
// COUNT: 0 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kasan_quarantine_size_0(void)
{
	char *p = malloc(64);

	OPTIMIZER_HIDE_VAR(p);
	free(p);
	kasan_int_result = ((volatile char *)p)[10];
	char *q = malloc(64);
	if (q != p)
		kasan_test_fail("the freed object was not reused at once");
	kasan_int_result = ((volatile char *)p)[10];
	free(q);
	fprintf(stderr, "done\n");
}

int main(void)
{
	kasan_quarantine_size_0();
	return 0;
}
