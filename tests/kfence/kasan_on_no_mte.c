// ARCH: x86_64 -- on arm64, -cpu max has MTE (tests/hw_tags test the no-MTE case there)
// RUN: kasan=on kfence.sample_rate=1 kasan.mode=sometimes
// STATUS: 0
// Hardware tags asked for where there is no memory tagging: one line says
// so, the bad kasan.mode value another, and the program runs on with
// KFENCE, whose report still comes.
// EXPECT: ukasan: invalid value 'sometimes' for kasan.mode (expected one of sync async asymm); using the default sync
// EXPECT: ukasan: kasan=on: hardware tags need arm64's memory tagging (MTE); running with KFENCE only
// EXPECT: BUG: KFENCE: out-of-bounds read in main
// COUNT: 3 ukasan:
// STDOUT: sum 4950
#include "kfence_test.h"

int main(void)
{
	int *v = test_alloc(100 * sizeof(int), RIGHT), sum = 0;
	for (int i = 0; i < 100; i++)
		v[i] = i;
	for (int i = 0; i < 100; i++)
		sum += v[i];
	sum += ((volatile int *)v)[100] * 0;
	free(v);
	printf("sum %d\n", sum);
	return 0;
}
