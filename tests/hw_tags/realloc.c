// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kasan_multi_shot kfence.sample_interval=0
// COUNT: 3 BUG: KASAN:
#include "hw_tags/hw_tags_test.h"

/* As the kernel's krealloc_more_oob / krealloc_less_oob / krealloc_uaf:
 * realloc keeps the data, the new object's end is where the check is, and
 * the old pointer is a use after free once the object has moved. */
static HW_TEST void realloc_grow(void)
{
	char *p = malloc(20);
	for (int i = 0; i < 20; i++)
		p[i] = (char)i;
	char *q = realloc(p, 100);
	HW_CHECK(q != NULL && hw_untag(q) != hw_untag(p));
	for (int i = 0; i < 20; i++)
		HW_CHECK(q[i] == (char)i);
	q[99] = 1;
	HW_CHECK(hw_mem_tag(p) == HW_TAG_FREED);
	HW_EXPECT_FAIL(hw_int_result = p[0], .type = "slab-use-after-free", .rw = "Read", .size = 1, .addr = p, .mem = "0e", .obj = p, .obj_size = 20, .freed = 1, .alloc_line = __LINE__ - 9, .free_line = __LINE__ - 6);
	free(malloc(1)); /* re-arm */
	HW_EXPECT_FAIL(q[112] = 1, .type = "slab-out-of-bounds", .rw = "Write", .size = 1, .addr = q + 112, .mem = "00", .obj = q, .obj_size = 100, .cache = "realloc", .alloc_line = __LINE__ - 8);
	free(q);
}

static HW_TEST void realloc_shrink(void)
{
	char *p = malloc(200);
	for (int i = 0; i < 200; i++)
		p[i] = (char)i;
	char *q = realloc(p, 40);
	HW_CHECK(q != NULL);
	for (int i = 0; i < 40; i++)
		HW_CHECK(q[i] == (char)i);
	free(malloc(1)); /* re-arm */
	/* 40 bytes own 48: the granule after is no longer the object's. */
	HW_EXPECT_FAIL(hw_int_result = q[48], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = q + 48, .obj = q, .obj_size = 40, .cache = "realloc", .alloc_line = __LINE__ - 6);
	free(q);
}

int main(void)
{
	realloc_grow();
	realloc_shrink();
	char *p = NULL;
	for (int i = 1; i <= 300; i++) { /* a growing buffer, as programs keep them */
		p = realloc(p, (size_t)i * 37);
		p[(size_t)i * 37 - 1] = (char)i;
		HW_CHECK(i == 1 || p[(size_t)(i - 1) * 37 - 1] == (char)(i - 1));
	}
	free(p);
	return 0;
}
