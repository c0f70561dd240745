// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kasan_multi_shot kfence.sample_interval=0
// COUNT: 2 BUG: KASAN:
#include "hw_tags/hw_tags_test.h"

/* As the kernel's kmalloc_oob_right for tag modes: no short granules, so
 * the tail of the object's last granule is not caught; the first byte of
 * the next granule (the next chunk's untagged header) is. */
static HW_TEST void oob_right(void)
{
	char *p = malloc(20);
	HW_CHECK(hw_ptr_tag(p) >= 0x1 && hw_ptr_tag(p) <= 0xd);
	HW_CHECK(hw_mem_tag(p) == hw_ptr_tag(p) && hw_mem_tag(p + 31) == hw_ptr_tag(p));
	HW_CHECK(hw_mem_tag(p + 32) == HW_TAG_NONE);
	for (int i = 20; i < 32; i++)
		p[i] = 'x'; /* the rest of the granule: not caught */
	HW_EXPECT_FAIL(hw_int_result = p[32], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = p + 32, .mem = "00", .obj = p, .obj_size = 20, .alloc_line = __LINE__ - 6);
	free(malloc(1)); /* re-arm */
	HW_EXPECT_FAIL(p[32] = 'y', .type = "slab-out-of-bounds", .rw = "Write", .size = 1, .addr = p + 32, .mem = "00", .obj = p, .obj_size = 20, .alloc_line = __LINE__ - 8);
	free(p);
}

int main(void)
{
	oob_right();
	return 0;
}
