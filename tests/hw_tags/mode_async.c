// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kasan.mode=async kfence.sample_interval=0
// EXPECT: ==================================================================
// EXPECT: BUG: KASAN: invalid-access
// EXPECT: Asynchronous fault: no details available
// EXPECT: Call Trace:
// EXPECT:  async_oob+0x
// EXPECT: ==================================================================
// NOT: Pointer tag:
// NOT: Allocated by task
// COUNT: 1 BUG: KASAN:
// STDOUT: after the fault
#include "hw_tags/hw_tags_test.h"

/* As the kernel's async mode (kasan.mode=async): the CPU only notes that a
 * mismatch happened, and the report, at the next point the kernel looks
 * (here: the signal, a little later), has no address, tags or object. */
static HW_TEST void async_oob(void)
{
	char *p = malloc(24);
	HW_CHECK((prctl(PR_GET_TAGGED_ADDR_CTRL, 0, 0, 0, 0) & 6) == 4); /* PR_MTE_TCF_ASYNC */
	p[32] = 1;
	/* The report comes within a few instructions, before the loop ends. */
	for (volatile int i = 0; i < 100000; i++)
		;
	printf("after the fault\n");
	free(p);
}

int main(void)
{
	async_oob();
	return 0;
}
