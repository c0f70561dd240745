// MODE: generic
// TAG-MODES: sw_tags hw_tags
// A malloc'd object whose only pointer is lost is reported at exit in the
// kernel's kmemleak format, with its size and allocation stack, and the
// run fails as with any other report.
// STATUS: 1
// EXPECT: BUG: memory leak
// EXPECT-RE: ^unreferenced object 0x[0-9a-f]{16} \(size 40\):
// EXPECT-RE: ^  comm "[^"]+", pid \d+, jiffies \d+
// EXPECT: hex dump (first 32 bytes):
// EXPECT: 6c 6f 73 74 00
// EXPECT-RE: ^  backtrace \(crc [0-9a-f]{8}\):
// EXPECT-RE: ^    \[<[0-9a-f]+>\] lose_malloc\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kmemleak/leak_malloc.c:29
// EXPECT-RE: ^    \[<[0-9a-f]+>\] main\+0x
// EXPECT: ukasan: kmemleak: 1 new suspected memory leak (40 bytes) from 1 allocation stack
// EXPECT-RE: ^ukasan: 1 report in this run
// COUNT: 1 BUG: memory leak
#include <stdlib.h>
#include <string.h>

#include "leak_test.h"

char *kept;

LEAK_TEST void lose_malloc(void)
{
	kept = malloc(16); /* reachable from a global: no report */
	strcpy(kept, "kept");
	char *p = malloc(40);
	HIDE(p);
	strcpy(p, "lost");
	HIDE(p);
}

int main(void)
{
	run_deep(lose_malloc);
	clear_stack();
	return 0;
}
