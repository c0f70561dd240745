// MODE: generic
// TAG-MODES: sw_tags hw_tags
// Two objects that point at each other and at nothing else: both are
// unreferenced from the roots, and both reported.
// STATUS: 1
// EXPECT-RE: unreferenced object 0x[0-9a-f]{16} \(size 32\):(\n.*){5,7}\n    \[<[0-9a-f]+>\] make_cycle\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kmemleak/leak_cycle.c:26
// EXPECT-RE: unreferenced object 0x[0-9a-f]{16} \(size 24\):(\n.*){5,7}\n    \[<[0-9a-f]+>\] make_cycle\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kmemleak/leak_cycle.c:25
// EXPECT: ukasan: kmemleak: 2 new suspected memory leaks (56 bytes) from 2 allocation stacks
// COUNT: 2 BUG: memory leak
#include <stdlib.h>

#include "leak_test.h"

struct a {
	void *other;
	long x, y;
};
struct b {
	void *other;
	long x, y, z;
};

LEAK_TEST void make_cycle(void)
{
	struct a *a = malloc(sizeof(*a));
	struct b *b = malloc(sizeof(*b));
	a->other = b;
	b->other = a;
	HIDE(a);
	HIDE(b);
}

int main(void)
{
	run_deep(make_cycle);
	clear_stack();
	return 0;
}
