// MODE: generic
// TAG-MODES: sw_tags hw_tags
// A lost new[]: reported with its size and the stack through operator new[].
// STATUS: 1
// EXPECT: BUG: memory leak
// EXPECT-RE: ^unreferenced object 0x[0-9a-f]{16} \(size 40\):
// EXPECT-RE: ^  backtrace \(crc [0-9a-f]{8}\):
// EXPECT-RE: lose_array(\(\))?\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kmemleak/leak_new_array.cc:17
// EXPECT: ukasan: kmemleak: 1 new suspected memory leak (40 bytes)
// COUNT: 1 BUG: memory leak
#include <iostream>

#include "leak_test.h"

LEAK_TEST void lose_array()
{
	int *a = new int[10];
	HIDE(a);
	a[0] = 1;
	HIDE(a);
}

int main()
{
	run_deep(lose_array);
	clear_stack();
	std::cout << "iostream's own objects are not leaks\n";
	return 0;
}
