// MODE: generic
// RUN: kasan_multi_shot
// The kernel's krealloc_more_oob: grow a 201-byte object to 235 bytes. All
// of the new size is accessible; the byte just past it and the first
// granule-aligned offset after it are slab-out-of-bounds. realloc always
// moves here, so the old pointer is a slab-use-after-free.
// EXPECT: BUG: KASAN: slab-out-of-bounds in krealloc_more_oob_helper+0x
// EXPECT: which belongs to the cache realloc of size 235
// EXPECT: The buggy address is located 0 bytes to the right of
// EXPECT: BUG: KASAN: slab-out-of-bounds in krealloc_more_oob_helper+0x
// EXPECT: The buggy address is located 5 bytes to the right of
// EXPECT: BUG: KASAN: slab-use-after-free in krealloc_more_oob_helper+0x
// EXPECT: which belongs to the cache malloc of size 201
// EXPECT: freed 201-byte region
// COUNT: 3 BUG: KASAN:
#include "kasan_test.h"

#define ROUND_UP(x, a) (((x) + (a)-1) / (a) * (a))

KASAN_TEST void krealloc_more_oob_helper(size_t size1, size_t size2, const char *cache)
{
	size_t middle = size1 + (size2 - size1) / 2;
	char *ptr1 = malloc(size1); int aline1 = __LINE__;
	char *ptr2 = realloc(ptr1, size2); int aline2 = __LINE__;

	OPTIMIZER_HIDE_VAR(ptr1);
	OPTIMIZER_HIDE_VAR(ptr2);
	if (ptr1 == ptr2)
		kasan_test_fail("realloc did not move the object");
	/* All offsets up to size2 must be accessible. */
	ptr2[size1 - 1] = 'x';
	ptr2[size1] = 'x';
	ptr2[middle] = 'x';
	ptr2[size2 - 1] = 'x';

	KASAN_EXPECT_FAIL(ptr2[size2] = 'x', .type = "slab-out-of-bounds", .rw = "Write", .size = 1, .addr = ptr2 + size2, .obj = ptr2, .obj_size = size2, .cache = cache, .alloc_line = aline2);
	KASAN_EXPECT_FAIL(ptr2[ROUND_UP(size2, 8)] = 'x', .type = "slab-out-of-bounds", .rw = "Write", .size = 1, .addr = ptr2 + ROUND_UP(size2, 8), .obj = ptr2, .obj_size = size2, .cache = cache, .alloc_line = aline2);
	KASAN_EXPECT_FAIL(kasan_int_result = ((volatile char *)ptr1)[0], .type = size1 >= (64 << 10) ? "use-after-free" : "slab-use-after-free", .rw = "Read", .size = 1, .addr = ptr1, .obj = ptr1, .obj_size = size1, .cache = size1 >= (64 << 10) ? "malloc-large" : "malloc", .freed = 1, .alloc_line = aline1, .free_line = aline2);
	free(ptr2);
}

int main(void)
{
	krealloc_more_oob_helper(201, 235, "realloc");
	return 0;
}
