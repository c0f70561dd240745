// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kasan_multi_shot kfence.sample_interval=0
// COUNT: 4 BUG: KASAN:
#include "hw_tags/hw_tags_test.h"

/* As the kernel's kmalloc_big_oob_right / kmalloc_large_uaf: allocations
 * beyond the small heap (64 KiB, 1 MiB) are tagged over all their
 * granules, with the default sampling (every one). */
static HW_TEST void large(size_t size)
{
	char *p = malloc(size);
	HW_CHECK(hw_ptr_tag(p) != 0);
	HW_CHECK(hw_mem_tag(p) == hw_ptr_tag(p) && hw_mem_tag(p + size - 1) == hw_ptr_tag(p));
	p[0] = p[size - 1] = 1;
	HW_EXPECT_FAIL(hw_int_result = p[size], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = p + size, .obj = p, .obj_size = size, .cache = "malloc-large", .alloc_line = __LINE__ - 4);
	free(p);
	free(malloc(1)); /* re-arm */
	HW_EXPECT_FAIL(p[size / 2] = 1, .type = "use-after-free", .rw = "Write", .size = 1, .addr = p + size / 2, .obj = p, .obj_size = size, .cache = "malloc-large", .freed = 1, .alloc_line = __LINE__ - 7, .free_line = __LINE__ - 2);
	free(malloc(1));
}

int main(void)
{
	large(64 << 10);
	large(1 << 20);
	return 0;
}
