// RUN: help=1
// UKASAN_OPTIONS=help=1 lists every option with its default and meaning,
// then ASAN_OPTIONS's keys and what each sets, and the program runs on.
// EXPECT: ukasan: options, as NAME=VALUE in UKASAN_OPTIONS separated by ':', ',' or white space, with their defaults:
// EXPECT-RE: ^  kfence\.sample_interval=100 +milliseconds between guarded allocations; 0 disables KFENCE$
// EXPECT-RE: ^  kfence\.fault=report +after a report: go on \(report\), or abort \(panic\)$
// EXPECT-RE: ^  kasan\.fault=report +after a report: go on \(report\), abort \(panic\)
// EXPECT-RE: ^  kasan_multi_shot=off +\S
// EXPECT-RE: ^  kasan\.quarantine_size=256M +bytes of freed memory
// EXPECT-RE: ^  ukasan\.log_path=stderr +\S
// EXPECT-RE: ^  ukasan\.exitcode=auto +\S
// EXPECT: ukasan: ASAN_OPTIONS keys read before UKASAN_OPTIONS, which wins; other keys are ignored:
// EXPECT-RE: ^  halt_on_error +1: kasan\.fault=panic kfence\.fault=panic
// EXPECT-RE: ^  quarantine_size_mb +kasan\.quarantine_size in MiB
// COUNT: 2 ukasan:
// NOT: unknown option
// STDOUT: sum 4950
#include "kfence_test.h"

int main(void)
{
	int *v = malloc(100 * sizeof(int)), sum = 0;
	for (int i = 0; i < 100; i++)
		v[i] = i;
	for (int i = 0; i < 100; i++)
		sum += v[i];
	free(v);
	printf("sum %d\n", sum);
	return 0;
}
