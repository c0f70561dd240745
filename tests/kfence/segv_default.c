// RUN: kfence.sample_rate=1
// STATUS: signal SIGSEGV
// NOT: BUG: KFENCE
#include "kfence_test.h"

int main(void)
{
	/* A fault outside the pool with no handler of the program's kills it
	 * with SIGSEGV, exactly as without ukasan. */
	void *p = malloc(10);
	free(p);
	*(volatile int *)8 = 1;
	return 0;
}
