// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kasan.mode=asymm kasan_multi_shot kfence.sample_interval=0
// COUNT: 2 BUG: KASAN:
#include "hw_tags/hw_tags_test.h"

/* kasan.mode=asymm: reads sync, writes async where the CPU offers it.
 * qemu 7.2 has no asymmetric mode, and Linux then checks synchronously
 * (as prctl with both SYNC and ASYNC gives SYNC): both the read and the
 * write get the full sync report. */
static HW_TEST void asymm(void)
{
	char *p = malloc(24);
	HW_CHECK((prctl(PR_GET_TAGGED_ADDR_CTRL, 0, 0, 0, 0) & 2) == 2); /* PR_MTE_TCF_SYNC */
	HW_EXPECT_FAIL(hw_int_result = p[32], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = p + 32, .mem = "00", .obj = p, .obj_size = 24, .alloc_line = __LINE__ - 2);
	free(malloc(1)); /* re-arm */
	HW_EXPECT_FAIL(p[32] = 1, .type = "slab-out-of-bounds", .rw = "Write", .size = 1, .addr = p + 32, .mem = "00", .obj = p, .obj_size = 24, .alloc_line = __LINE__ - 4);
	free(p);
}

int main(void)
{
	asymm();
	return 0;
}
