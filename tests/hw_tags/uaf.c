// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kasan_multi_shot kfence.sample_interval=0
// COUNT: 2 BUG: KASAN:
#include "hw_tags/hw_tags_test.h"

/* As the kernel's kmalloc_uaf and kmalloc_uaf_memset: free retags the
 * object with the invalid tag 0xE, so any access through the old pointer
 * mismatches. */
static HW_TEST void uaf_read(void)
{
	char *p = malloc(10);
	free(p);
	HW_CHECK(hw_mem_tag(p) == HW_TAG_FREED);
	HW_EXPECT_FAIL(hw_int_result = p[8], .type = "slab-use-after-free", .rw = "Read", .size = 1, .addr = p + 8, .mem = "0e", .obj = p, .obj_size = 10, .freed = 1, .alloc_line = __LINE__ - 3, .free_line = __LINE__ - 2);
}

static HW_TEST void uaf_write(void)
{
	long *p = malloc(200);
	free(p);
	HW_EXPECT_FAIL(p[20] = 7, .type = "slab-use-after-free", .rw = "Write", .size = 8, .addr = p + 20, .mem = "0e", .obj = p, .obj_size = 200, .freed = 1, .alloc_line = __LINE__ - 2, .free_line = __LINE__ - 1);
}

int main(void)
{
	uaf_read();
	uaf_write();
	return 0;
}
