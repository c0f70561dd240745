// RUN: kfence.sample_rate=1 ukasan.exitcode=5
// ukasan.exitcode set makes a KFENCE report fail the run as well.
// STATUS: 5
// EXPECT: BUG: KFENCE: use-after-free read in read_after_free+0x
// EXPECT-RE: ^ukasan: 1 report in this run \(pid \d+\); exit status 5 instead of 0 \(ukasan\.exitcode\)$
#include "kfence_test.h"

int main(void)
{
	report_use_after_free();
	return 0;
}
