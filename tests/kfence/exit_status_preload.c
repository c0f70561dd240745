// RUN: kfence.sample_rate=1
// In production (the preload, KFENCE only) a report keeps the program's
// own exit status (ukasan.exitcode auto: 0); the summary line says there
// was one.
// STATUS: 0
// EXPECT: BUG: KFENCE: use-after-free read in read_after_free+0x
// EXPECT-RE: ^ukasan: 1 report in this run \(pid \d+\)$
// NOT: instead of
#include "kfence_test.h"

int main(void)
{
	report_use_after_free();
	return 0;
}
