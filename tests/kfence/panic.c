// RUN: kfence.sample_rate=1 kfence.fault=panic
// STATUS: signal SIGABRT
// EXPECT: BUG: KFENCE: out-of-bounds write in main+0x
// EXPECT: ==================================================================
// EXPECT: ukasan: kfence.fault=panic set, aborting
// NOT: still running
#include "kfence_test.h"

int main(void)
{
	char *p = test_alloc(16, LEFT);
	p[-1] = 0;
	fprintf(stderr, "still running\n");
	return 0;
}
