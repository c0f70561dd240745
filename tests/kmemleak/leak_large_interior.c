// MODE: generic
// TAG-MODES: sw_tags hw_tags
// Large objects as the leak scan finds them (a sorted list of the live
// ones, built when the scan begins): a large object whose only pointer
// points into its middle or to its last byte is referenced; so is a small
// object whose only pointer lies inside a large one; a large object
// nothing points to is reported, once, with its size and stack; and a
// word pointing into a freed large object's memory keeps nothing alive.
// STATUS: 1
// EXPECT: BUG: memory leak
// EXPECT-RE: ^unreferenced object 0x[0-9a-f]{16} \(size 200000\):
// EXPECT-RE: ^    \[<[0-9a-f]+>\] lose_large\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kmemleak/leak_large_interior.c:\d+
// EXPECT: ukasan: kmemleak: 1 new suspected memory leak (200000 bytes) from 1 allocation stack
// COUNT: 1 BUG: memory leak
#include <stdlib.h>
#include <string.h>

#include "leak_test.h"

char *middle, *last;
char *freed_into;

LEAK_TEST void keep_by_interior(void)
{
	char *a = malloc(1 << 20);
	middle = a + (1 << 19) + 3; /* only an interior pointer */
	char *b = malloc(300000);
	last = b + 300000 - 1; /* only a pointer to the last byte */
	char **slot = (char **)(b + 4096 * 20);
	*slot = malloc(24); /* a small object held only inside a large one */
	strcpy(*slot, "held");
	char *c = malloc(500000);
	HIDE(c);
	freed_into = c + 1000; /* points into memory freed below */
	free(c);
	HIDE(a);
	HIDE(b);
}

LEAK_TEST void lose_large(void)
{
	char *p = malloc(200000);
	HIDE(p);
	memset(p, 1, 64);
	HIDE(p);
}

int main(void)
{
	run_deep(keep_by_interior);
	run_deep(lose_large);
	clear_stack();
	return 0;
}
