// MODE: generic
// RUN: kasan_multi_shot
// free() of wild pointers into memory nobody mapped: each is an
// invalid-free, and finding out that no object is there takes
// microseconds. The search for the object a pointer belongs to walked the
// shadow back up to 4 GiB of memory first, some 2 s a free.
// EXPECT: BUG: KASAN: invalid-free in free_wild+0x
// EXPECT-RE: ^Free of addr 0000200000000000 by task \S+/\d+$
// COUNT: 20 BUG: KASAN: invalid-free
// STDOUT: 20 wild frees: fast
#include "kasan_test.h"

#include <time.h>

KASAN_TEST void free_wild(uintptr_t addr)
{
	void *p = (void *)addr;
	KASAN_BARRIER();
	free(p);
	KASAN_BARRIER(); /* not a tail call: the report's first frame is ours */
}

/* 32 TiB: program memory on x86-64 and arm64 alike, outside both shadows,
 * that nothing maps. */
int main(void)
{
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (int i = 0; i < 20; i++)
		free_wild(0x200000000000ul + (uintptr_t)i * (1ul << 30));
	clock_gettime(CLOCK_MONOTONIC, &b);
	double s = (double)(b.tv_sec - a.tv_sec) + (double)(b.tv_nsec - a.tv_nsec) / 1e9;
	/* The reports themselves (stacks, symbols) cost milliseconds; the
	 * walk cost seconds each. */
	printf("20 wild frees: %s (%.3f s)\n", s < 2.0 ? "fast" : "slow", s);
	return 0;
}
