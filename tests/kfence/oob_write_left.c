// RUN: kfence.sample_rate=1
// EXPECT: BUG: KFENCE: out-of-bounds write in main+0x
// EXPECT-RE: ^ \[<[0-9a-f]+>\] main\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kfence/oob_write_left.c:\d+$
// COUNT: 1 BUG: KFENCE:
#include "kfence_test.h"

int main(void)
{
	char *p = test_alloc(100, LEFT);
	expect("Out-of-bounds write at %p (8B left of kfence-#", (void *)(p - 8));
	*(volatile long *)(p - 8) = 1;
	free(p);
	return 0;
}
