// RUN: kfence.sample_rate=1
// EXPECT: BUG: KFENCE: invalid free in main+0x
// EXPECT: , size=64, cache=malloc
// NOT: freed by task
// COUNT: 1 BUG: KFENCE:
#include "kfence_test.h"

int main(void)
{
	/* Freeing an interior pointer: reported, and the object stays live. */
	char *p = test_alloc(64, ANY);
	expect("Invalid free of %p (in kfence-#", (void *)(p + 1));
	free(p + 1);
	p[63] = 1;
	free(p);
	return 0;
}
