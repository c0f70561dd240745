// RUN: kfence.sample_rate=1 kfence.num_objects=8 kfence.stats=1 kfence.skip_covered_thresh=100
// EXPECT: enabled: 1
// EXPECT: zombie allocations: 0
// EXPECT: skipped allocations (incompatible): 1
// EXPECT-RE: ^skipped allocations \(capacity\): [1-9]\d*$
// EXPECT: skipped allocations (covered): 0
// NOT: BUG: KFENCE
#include "kfence_test.h"

int main(void)
{
	/* With every slot taken, allocations fall back to glibc and are
	 * counted; freed slots are reused, least recently freed first. */
	void *held[64];
	int guarded = 0;
	for (int i = 0; i < 64; i++) {
		held[i] = malloc(100);
		guarded += ukasan_is_kfence_address(held[i]) != 0;
	}
	if (guarded < 1 || guarded > 8)
		return 90;
	void *big = malloc(2 << 20); /* over kfence.large_size: "incompatible" */
	if (ukasan_is_kfence_address(big))
		return 89;
	free(big);
	void *first = NULL;
	for (int i = 0; i < 64; i++)
		if (ukasan_is_kfence_address(held[i]) && !first)
			first = held[i];
	for (int i = 0; i < 64; i++)
		free(held[i]);
	void *again = malloc(100);
	if (!ukasan_is_kfence_address(again))
		return 88;
	free(again);
	return 0;
}
