// RUN: kfence.sample_rate=1 kfence.stats=1 ukasan.exitcode=5
// Statistics printed at exit are not reports: no summary, status kept.
// STATUS: 0
// EXPECT: ukasan: kfence statistics of pid
// NOT: report in this run
#include "kfence_test.h"

int main(void)
{
	free(test_alloc(16, ANY));
	return 0;
}
