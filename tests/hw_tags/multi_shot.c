// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kasan_multi_shot kfence.sample_interval=0
// COUNT: 5 BUG: KASAN:
#include "hw_tags/hw_tags_test.h"

/* kasan_multi_shot: every bug is reported. After a report the thread's
 * checks are off until its next malloc or free (the access completes
 * meanwhile): a second bad access with no allocation between is not
 * reported, one after an allocation is. */
static HW_TEST void multi_shot(void)
{
	for (int i = 0; i < 4; i++) {
		long *q = malloc(32);
		free(q);
		HW_EXPECT_FAIL(q[2] = i, .type = "slab-use-after-free", .rw = "Write", .size = 8, .addr = q + 2, .mem = "0e", .obj = q, .obj_size = 32, .freed = 1, .alloc_line = __LINE__ - 2, .free_line = __LINE__ - 1);
		HW_CHECK(q[2] == i); /* checks are off: the write went through */
	}
	char *p = malloc(24);
	HW_EXPECT_FAIL(hw_int_result = p[32], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = p + 32, .mem = "00", .obj = p, .obj_size = 24, .alloc_line = __LINE__ - 1);
	hw_int_result = p[48]; /* not reported: no malloc or free since */
	free(p);
}

int main(void)
{
	multi_shot();
	return 0;
}
