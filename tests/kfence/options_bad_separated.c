// RUN: kfence.sample_rate=1:kfence.fault=explode,kfence.nonsense=1:kasan_multi_shot=maybe kfence.stats=1
// Bad words among options separated by ':' and ',' are one line each, and
// the others, before and after them, still apply: the program runs on
// with the defaults of the bad ones (kfence.fault=report: the report does
// not end it).
// EXPECT: ukasan: invalid value 'explode' for kfence.fault (expected one of report panic); using the default report
// EXPECT: ukasan: unknown option kfence.nonsense; ignored
// EXPECT: ukasan: invalid value 'maybe' for kasan_multi_shot (expected on or off); using the default off
// EXPECT: BUG: KFENCE: use-after-free read in read_after_free+0x
// EXPECT-RE: ^total allocations: [1-9]
// COUNT: 2 ukasan: invalid value
// COUNT: 1 ukasan: unknown
// STDOUT: ran on
#include "kfence_test.h"

int main(void)
{
	report_use_after_free();
	printf("ran on\n");
	return 0;
}
