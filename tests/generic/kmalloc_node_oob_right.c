// MODE: generic
// RUN: kasan_multi_shot
// The kernel's kmalloc_node_oob_right (kmalloc's NUMA variant), with the
// other user-space allocation entry points: a read just past a 4000-byte
// object from aligned_alloc, posix_memalign and calloc. Each is a
// slab-out-of-bounds, and the cache names the allocating family. (The
// kernel's is 4096 bytes, a slab object there; here a page is a large
// object, which kmalloc_large_node_oob_right.c covers.)
// EXPECT: BUG: KASAN: slab-out-of-bounds in kmalloc_node_oob_right+0x
// EXPECT: which belongs to the cache memalign of size 4000
// EXPECT: BUG: KASAN: slab-out-of-bounds in kmalloc_node_oob_right+0x
// EXPECT: which belongs to the cache memalign of size 4000
// EXPECT: BUG: KASAN: slab-out-of-bounds in kmalloc_node_oob_right+0x
// EXPECT: which belongs to the cache calloc of size 4000
// COUNT: 3 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kmalloc_node_oob_right(void)
{
	size_t size = 4000;
	char *a = aligned_alloc(64, size); int aline_a = __LINE__;
	char *b = NULL;
	int err = posix_memalign((void **)&b, 256, size); int aline_b = __LINE__;
	char *c = calloc(size, 1); int aline_c = __LINE__;

	if (err || ((uintptr_t)a & 63) || ((uintptr_t)b & 255))
		kasan_test_fail("misaligned or failed allocation");
	OPTIMIZER_HIDE_VAR(a);
	OPTIMIZER_HIDE_VAR(b);
	OPTIMIZER_HIDE_VAR(c);
	KASAN_EXPECT_FAIL(a[0] = a[size], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = a + size, .obj = a, .obj_size = size, .cache = "memalign", .alloc_line = aline_a);
	KASAN_EXPECT_FAIL(b[0] = b[size], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = b + size, .obj = b, .obj_size = size, .cache = "memalign", .alloc_line = aline_b);
	KASAN_EXPECT_FAIL(c[0] = c[size], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = c + size, .obj = c, .obj_size = size, .cache = "calloc", .alloc_line = aline_c);
	free(a);
	free(b);
	free(c);
}

int main(void)
{
	kmalloc_node_oob_right();
	return 0;
}
