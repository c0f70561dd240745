// MODE: generic
// RUN: kasan_multi_shot
// kmalloc_node_oob_right.c for page-sized objects, which come from the
// large-object regions: a read just past a 4096-byte object from
// aligned_alloc, posix_memalign and calloc: the object fills its page, so
// the read lands in the extent's guard page. The cache names the allocating
// family, with -large.
// EXPECT: BUG: KASAN: slab-out-of-bounds in kmalloc_large_node_oob_right+0x
// EXPECT: which belongs to the cache memalign-large of size 4096
// EXPECT: BUG: KASAN: slab-out-of-bounds in kmalloc_large_node_oob_right+0x
// EXPECT: which belongs to the cache memalign-large of size 4096
// EXPECT: BUG: KASAN: slab-out-of-bounds in kmalloc_large_node_oob_right+0x
// EXPECT: which belongs to the cache calloc-large of size 4096
// COUNT: 3 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kmalloc_large_node_oob_right(void)
{
	size_t size = 4096;
	char *a = aligned_alloc(64, size); int aline_a = __LINE__;
	char *b = NULL;
	int err = posix_memalign((void **)&b, 256, size); int aline_b = __LINE__;
	char *c = calloc(size, 1); int aline_c = __LINE__;

	if (err || ((uintptr_t)a & 63) || ((uintptr_t)b & 255))
		kasan_test_fail("misaligned or failed allocation");
	OPTIMIZER_HIDE_VAR(a);
	OPTIMIZER_HIDE_VAR(b);
	OPTIMIZER_HIDE_VAR(c);
	KASAN_EXPECT_FAIL(a[0] = a[size], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = a + size, .obj = a, .obj_size = size, .cache = "memalign-large", .alloc_line = aline_a);
	KASAN_EXPECT_FAIL(b[0] = b[size], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = b + size, .obj = b, .obj_size = size, .cache = "memalign-large", .alloc_line = aline_b);
	KASAN_EXPECT_FAIL(c[0] = c[size], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = c + size, .obj = c, .obj_size = size, .cache = "calloc-large", .alloc_line = aline_c);
	free(a);
	free(b);
	free(c);
}

int main(void)
{
	kmalloc_large_node_oob_right();
	return 0;
}
