// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kfence.sample_interval=0
// COUNT: 1 BUG: KASAN:
// STDOUT: done
#include "hw_tags/hw_tags_test.h"

/* Without kasan_multi_shot only the first report is printed, as in the
 * kernel; the bad accesses after it complete and the program runs on. */
static HW_TEST void single_shot(void)
{
	char *p = malloc(24);
	HW_EXPECT_FAIL(hw_int_result = p[32], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = p + 32, .mem = "00", .obj = p, .obj_size = 24, .alloc_line = __LINE__ - 1);
	for (int i = 0; i < 5; i++) {
		char *q = malloc(24);
		free(q);
		q[0] = 1;
		free(malloc(8));
	}
	free(p);
}

int main(void)
{
	single_shot();
	printf("done\n");
	return 0;
}
