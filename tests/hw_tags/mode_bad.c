// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kasan.mode=x kfence.sample_interval=0
// EXPECT: ukasan: invalid value 'x' for kasan.mode (expected one of sync async asymm); using the default sync
// COUNT: 1 ukasan: invalid value
// COUNT: 1 BUG: KASAN:
#include "hw_tags/hw_tags_test.h"

/* A bad option value is named in one line, and the program runs on with
 * the default: sync mode, the full report. */
static HW_TEST void bad_mode(void)
{
	char *p = malloc(24);
	HW_CHECK((prctl(PR_GET_TAGGED_ADDR_CTRL, 0, 0, 0, 0) & 6) == 2); /* PR_MTE_TCF_SYNC */
	HW_EXPECT_FAIL(hw_int_result = p[32], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = p + 32, .mem = "00", .obj = p, .obj_size = 24, .alloc_line = __LINE__ - 2);
	free(p);
}

int main(void)
{
	bad_mode();
	return 0;
}
