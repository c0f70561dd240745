// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kasan_multi_shot kfence.sample_interval=0
// COUNT: 2 BUG: KASAN:
#include "hw_tags/hw_tags_test.h"

/* As the kernel's kmalloc_oob_left: the granule before each object is its
 * chunk's header, untagged, so a read just before the object is caught. */
static HW_TEST void oob_left(void)
{
	char *p = malloc(40);
	HW_CHECK(hw_mem_tag(p - 1) == HW_TAG_NONE);
	HW_EXPECT_FAIL(hw_int_result = p[-1], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = p - 1, .mem = "00", .obj = p, .obj_size = 40, .alloc_line = __LINE__ - 2);
	free(malloc(1)); /* re-arm */
	HW_EXPECT_FAIL(((volatile int *)p)[-4] = 1, .type = "slab-out-of-bounds", .rw = "Write", .size = 4, .addr = p - 16, .mem = "00", .obj = p, .obj_size = 40, .alloc_line = __LINE__ - 4);
	free(p);
}

int main(void)
{
	oob_left();
	return 0;
}
