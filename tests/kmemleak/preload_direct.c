// A program built with plain gcc, under the preload with kmemleak=on: a
// malloc'd object whose only pointer is lost is reported at exit in the
// kernel's format, with the leaking function, and the run fails.
// RUN: kmemleak=on
// RUN-ALSO: kmemleak=on kfence.sample_interval=0
// CFLAGS: -O1
// STATUS: 1
// EXPECT: BUG: memory leak
// EXPECT-RE: ^unreferenced object 0x[0-9a-f]{16} \(size 40\):
// EXPECT: 6c 6f 73 74 00
// EXPECT-RE: ^  backtrace \(crc [0-9a-f]{8}\):
// EXPECT-RE: ^    \[<[0-9a-f]+>\] lose_malloc\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kmemleak/preload_direct.c:\d+
// EXPECT-RE: ^    \[<[0-9a-f]+>\] main\+0x
// EXPECT: ukasan: kmemleak: 1 new suspected memory leak (40 bytes) from 1 allocation stack
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
