// MODE: generic
// TAG-MODES: sw_tags hw_tags
// Objects of 64 bytes or more that start on a 64-byte boundary (their
// shadow starts a whole zero word) are found by the heap walk: one lost
// from aligned_alloc, one from posix_memalign; the reachable twin of each
// is not reported.
// RUN: kfence.sample_interval=0
// STATUS: 1
// EXPECT-RE: unreferenced object 0x[0-9a-f]*[048c]0 \(size 128\):(\n.*){5,7}\n    \[<[0-9a-f]+>\] lose_aligned\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kmemleak/leak_aligned.c:25
// EXPECT-RE: unreferenced object 0x[0-9a-f]*00 \(size 64\):(\n.*){5,7}\n    \[<[0-9a-f]+>\] lose_aligned\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kmemleak/leak_aligned.c:28
// EXPECT: ukasan: kmemleak: 2 new suspected memory leaks (192 bytes) from 2 allocation stacks
// COUNT: 2 BUG: memory leak
#include <stdlib.h>
#include <string.h>

#include "leak_test.h"

void *kept[2];

LEAK_TEST void lose_aligned(void)
{
	kept[0] = aligned_alloc(64, 128);
	if (posix_memalign(&kept[1], 256, 64))
		abort();
	char *p = aligned_alloc(64, 128);
	HIDE(p);
	memset(p, 1, 128);
	if (posix_memalign((void **)&p, 256, 64))
		abort();
	HIDE(p);
	memset(p, 2, 64);
	HIDE(p);
}

int main(void)
{
	run_deep(lose_aligned);
	clear_stack();
	return 0;
}
