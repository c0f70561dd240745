// RUN: kfence.sample_rate=1:kfence.stats=1
// RUN-ALSO: kfence.sample_rate=1,kfence.stats=1
// RUN-ALSO: kfence.sample_rate=1 kfence.stats=1
// RUN-ALSO: ,:kfence.sample_rate=1, :,kfence.stats:
// UKASAN_OPTIONS is split as every sanitizer's options are: at ':', ','
// or white space, any run of them, and a bare boolean name is on. Each
// run guards every allocation (kfence.sample_rate=1: the first malloc is
// KFENCE's) and prints KFENCE's counters at exit (kfence.stats), so both
// options were read; no line says either was refused.
// STDOUT: first allocation guarded
// EXPECT: BUG: KFENCE: use-after-free read in read_after_free+0x
// EXPECT-RE: ^total allocations: [1-9]
// NOT: ukasan: invalid value
// NOT: ukasan: unknown option
#include "kfence_test.h"

int main(void)
{
	char *p = malloc(16);
	printf("first allocation %s\n", placed(p, 16, ANY) ? "guarded" : "not guarded");
	free(p);
	report_use_after_free();
	return 0;
}
