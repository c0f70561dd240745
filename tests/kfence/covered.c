// RUN: kfence.sample_rate=1 kfence.num_objects=8 kfence.stats=1
// EXPECT-RE: ^skipped allocations \(covered\): [1-9]\d*$
// NOT: BUG: KFENCE
#include "kfence_test.h"

static void *from_a(void) { return malloc(40); }
static void *from_b(void) { return malloc(40); }

int main(void)
{
	/* Once the pool is over 75% full, a stack that already has a live
	 * guarded object is skipped, leaving room for new stacks. */
	void *a[32];
	int ga = 0;
	for (int i = 0; i < 32; i++)
		ga += ukasan_is_kfence_address(a[i] = from_a()) != 0;
	void *b = from_b();
	int gb = ukasan_is_kfence_address(b) != 0;
	printf("from_a guarded %d, from_b guarded %d\n", ga, gb);
	if (ga >= 8 || !gb)
		return 87;
	for (int i = 0; i < 32; i++)
		free(a[i]);
	free(b);
	return 0;
}
