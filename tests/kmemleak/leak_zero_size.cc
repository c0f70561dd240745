// MODE: generic
// TAG-MODES: sw_tags hw_tags
// Lost objects of size zero, malloc(0) and new int[0], are leaks as any
// other (LSan's malloc_zero test: "1 byte(s) leaked in 1 allocation(s)",
// its allocator rounds 0 up to 1): each is reported with its size, 0, and
// the stack that allocated it.
// STATUS: 1
// EXPECT: BUG: memory leak
// EXPECT-RE: ^unreferenced object 0x[0-9a-f]{16} \(size 0\):
// EXPECT-RE: ^    \[<[0-9a-f]+>\] lose_(malloc|array)(\(\))?\+0x
// EXPECT: BUG: memory leak
// EXPECT-RE: ^unreferenced object 0x[0-9a-f]{16} \(size 0\):
// EXPECT-RE: ^    \[<[0-9a-f]+>\] lose_(malloc|array)(\(\))?\+0x
// EXPECT: ukasan: kmemleak: 2 new suspected memory leaks (0 bytes)
// COUNT: 1 tests/kmemleak/leak_zero_size.cc:40
// COUNT: 1 tests/kmemleak/leak_zero_size.cc:26
// COUNT: 2 BUG: memory leak
// NOT: keep_malloc
#include <stdio.h>
#include <stdlib.h>

#include "leak_test.h"

LEAK_TEST void lose_array()
{
	int *a = new int[0];
	HIDE(a);
}

/* Still referenced from a global at exit: not a leak. */
void *kept_empty;

LEAK_TEST void keep_malloc()
{
	kept_empty = malloc(0);
}

LEAK_TEST void lose_malloc()
{
	void *p = malloc(0);
	HIDE(p);
}

int main()
{
	run_deep(lose_array);
	run_deep(lose_malloc);
	run_deep(keep_malloc);
	clear_stack();
	return 0;
}
