// RUN: kfence.sample_rate=1
// EXPECT: BUG: KFENCE: out-of-bounds read in main+0x
// EXPECT-RE: ^ \[<[0-9a-f]+>\] main\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kfence/oob_read_left.c:12$
// COUNT: 1 BUG: KFENCE:
#include "kfence_test.h"

int main(void)
{
	char *p = test_alloc(32, LEFT);
	expect("Out-of-bounds read at %p (1B left of kfence-#", (void *)(p - 1));
	volatile char *v = p;
	char c = v[-1];
	(void)c;
	/* Reported once, then the access goes on, as in the kernel. */
	c = v[-1];
	free(p);
	return 0;
}
