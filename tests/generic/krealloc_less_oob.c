// MODE: generic
// VARIANTS: gcc clang gcc-outline clang-outline
// RUN: kasan_multi_shot
// The kernel's krealloc_less_oob: shrink a 235-byte object to 201 bytes.
// The byte just past the new size, the next aligned offset, the middle of
// the dropped tail, its last byte and the old end are all slab-out-of-bounds
// now; the old pointer is a slab-use-after-free (realloc always moves here).
// EXPECT: BUG: KASAN: slab-out-of-bounds in krealloc_less_oob_helper+0x
// EXPECT: The buggy address is located 0 bytes to the right of
// EXPECT: BUG: KASAN: slab-out-of-bounds in krealloc_less_oob_helper+0x
// EXPECT: The buggy address is located 7 bytes to the right of
// EXPECT: BUG: KASAN: slab-out-of-bounds in krealloc_less_oob_helper+0x
// EXPECT: The buggy address is located 17 bytes to the right of
// EXPECT: BUG: KASAN: slab-out-of-bounds in krealloc_less_oob_helper+0x
// EXPECT: The buggy address is located 33 bytes to the right of
// EXPECT: BUG: KASAN: slab-out-of-bounds in krealloc_less_oob_helper+0x
// EXPECT: The buggy address is located 34 bytes to the right of
// EXPECT: BUG: KASAN: 
// EXPECT: use-after-free in krealloc_less_oob_helper+0x
// EXPECT: Freed by task
// COUNT: 6 BUG: KASAN:
#include "kasan_test.h"

#define ROUND_UP(x, a) (((x) + (a)-1) / (a) * (a))
#define LARGE(size) ((size) >= (64 << 10))

KASAN_TEST void krealloc_less_oob_helper(size_t size1, size_t size2, const char *cache)
{
	size_t middle = size2 + (size1 - size2) / 2;
	char *ptr1 = malloc(size1); int aline1 = __LINE__;
	char *ptr2 = realloc(ptr1, size2); int aline2 = __LINE__;

	OPTIMIZER_HIDE_VAR(ptr1);
	OPTIMIZER_HIDE_VAR(ptr2);
	if (ptr1 == ptr2)
		kasan_test_fail("realloc did not move the object");
	ptr2[size2 - 1] = 'x';

	KASAN_EXPECT_FAIL(ptr2[size2] = 'x', .type = "slab-out-of-bounds", .rw = "Write", .size = 1, .addr = ptr2 + size2, .obj = ptr2, .obj_size = size2, .cache = cache, .alloc_line = aline2);
	KASAN_EXPECT_FAIL(ptr2[ROUND_UP(size2, 8)] = 'x', .type = "slab-out-of-bounds", .rw = "Write", .size = 1, .addr = ptr2 + ROUND_UP(size2, 8), .obj = ptr2, .obj_size = size2, .cache = cache, .alloc_line = aline2);
	KASAN_EXPECT_FAIL(ptr2[middle] = 'x', .type = "slab-out-of-bounds", .rw = "Write", .size = 1, .addr = ptr2 + middle, .obj = ptr2, .obj_size = size2, .cache = cache, .alloc_line = aline2);
	KASAN_EXPECT_FAIL(ptr2[size1 - 1] = 'x', .type = "slab-out-of-bounds", .rw = "Write", .size = 1, .addr = ptr2 + size1 - 1, .obj = ptr2, .obj_size = size2, .cache = cache, .alloc_line = aline2);
	KASAN_EXPECT_FAIL(ptr2[size1] = 'x', .type = "slab-out-of-bounds", .rw = "Write", .size = 1, .addr = ptr2 + size1, .obj = ptr2, .obj_size = size2, .cache = cache, .alloc_line = aline2);
	KASAN_EXPECT_FAIL(kasan_int_result = ((volatile char *)ptr1)[size2], .type = LARGE(size1) ? "use-after-free" : "slab-use-after-free", .rw = "Read", .size = 1, .addr = ptr1 + size2, .obj = ptr1, .obj_size = size1, .cache = LARGE(size1) ? "malloc-large" : "malloc", .freed = 1, .alloc_line = aline1, .free_line = aline2);
	free(ptr2);
}

int main(void)
{
	krealloc_less_oob_helper(235, 201, "realloc");
	return 0;
}
