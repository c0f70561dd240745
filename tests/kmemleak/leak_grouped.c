// MODE: generic
// TAG-MODES: sw_tags hw_tags
// A thousand leaks from one allocation stack make one report: the first
// object, then a count of the others and the bytes of all.
// STATUS: 1
// EXPECT-RE: unreferenced object 0x[0-9a-f]{16} \(size 16\):
// EXPECT-RE: ^  backtrace \(crc [0-9a-f]{8}\):\n    \[<[0-9a-f]+>\] lose_many\+0x
// EXPECT: 999 more unreferenced objects from this stack (16000 bytes in 1000 objects)
// EXPECT: ukasan: kmemleak: 1000 new suspected memory leaks (16000 bytes) from 1 allocation stack
// COUNT: 1 BUG: memory leak
#include <stdlib.h>

#include "leak_test.h"

LEAK_TEST void lose_many(void)
{
	for (int i = 0; i < 1000; i++) {
		void *p = malloc(16);
		HIDE(p);
	}
}

int main(void)
{
	run_deep(lose_many);
	clear_stack();
	return 0;
}
