// RUN: kfence.sample_rate=1
// EXPECT: BUG: KFENCE: out-of-bounds read in main+0x
// COUNT: 1 BUG: KFENCE:
// NOT: memory corruption
#include "kfence_test.h"

int main(void)
{
	/* A 73-byte right-placed object is aligned down to 16 bytes, leaving 7
	 * canary bytes before the guard page: reading them is not an error the
	 * hardware sees (as in the kernel); the first byte of the guard is. */
	char *p = test_alloc(73, RIGHT);
	volatile char *v = p;
	char c = v[73];
	expect("Out-of-bounds read at %p (80B right of kfence-#", (void *)(p + 80));
	c = v[80];
	(void)c;
	free(p);
	return 0;
}
