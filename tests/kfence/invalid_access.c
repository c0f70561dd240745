// RUN: kfence.sample_rate=1 kfence.num_objects=1
// EXPECT: BUG: KFENCE: invalid read in main+0x
// COUNT: 1 BUG: KFENCE:
#include "kfence_test.h"

int main(void)
{
	/* One slot: once its object is freed, the guard page after it has no
	 * allocated neighbour, so an access there is "invalid". */
	char *p = NULL;
	for (int i = 0; i < 1000 && !p; i++) {
		char *a = malloc(64);
		if (ukasan_is_kfence_address(a))
			p = a;
		else
			free(a);
	}
	if (!p)
		return 91;
	char *guard = (char *)(((uintptr_t)p & ~(uintptr_t)4095) + 4096);
	expect("Invalid read at %p:", (void *)guard);
	free(p);
	char c = *(volatile char *)guard;
	(void)c;
	return 0;
}
