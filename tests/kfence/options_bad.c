// RUN: kfence.sample_rate=banana kfence.nonsense=1 kfence.fault=explode kfence.num_objects=-3 kasan.quarantine_size=12Q kasan_multi_shot=maybe kfence.num_objects=4
// EXPECT: ukasan: invalid value 'banana' for kfence.sample_rate (expected a whole number from 0 to 1073741824); using the default 0
// EXPECT: ukasan: unknown option kfence.nonsense; ignored
// EXPECT: ukasan: invalid value 'explode' for kfence.fault (expected one of report panic); using the default report
// EXPECT: ukasan: invalid value '-3' for kfence.num_objects
// EXPECT: ukasan: invalid value '12Q' for kasan.quarantine_size
// EXPECT: ukasan: invalid value 'maybe' for kasan_multi_shot (expected on or off); using the default off
// COUNT: 6 ukasan:
// STDOUT: sum 4950
#include "kfence_test.h"

int main(void)
{
	/* Bad options are named, one line each, and the program runs on with
	 * the defaults; the good option after them still applies. */
	int *v = malloc(100 * sizeof(int)), sum = 0;
	for (int i = 0; i < 100; i++)
		v[i] = i;
	for (int i = 0; i < 100; i++)
		sum += v[i];
	free(v);
	printf("sum %d\n", sum);
	return 0;
}
