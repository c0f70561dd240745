// MODE: generic
// VARIANTS: gcc clang gcc-outline clang-outline
// RUN: kasan_multi_shot
// The kernel's kmalloc_big_oob_right: a write just past a big object that
// is still a slab object. The kernel's slabs end at KMALLOC_MAX_CACHE_SIZE
// (two pages) and its test takes 256 bytes less; ukasan's end below a page
// (from a page up, objects come from the large-object regions), so: a page
// less 256 bytes, and 4095 bytes, the biggest slab object. Freed, the big
// object is a slab-use-after-free, not a page one.
// EXPECT: BUG: KASAN: slab-out-of-bounds in kmalloc_big_oob_right+0x
// EXPECT-RE: ^Write of size 1 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: which belongs to the cache malloc of size 3840
// EXPECT: The buggy address is located 0 bytes to the right of
// EXPECT: allocated 3840-byte region
// EXPECT: BUG: KASAN: slab-out-of-bounds in kmalloc_big_oob_right+0x
// EXPECT: which belongs to the cache malloc of size 4095
// EXPECT: BUG: KASAN: slab-use-after-free in kmalloc_big_oob_right+0x
// EXPECT: which belongs to the cache malloc of size 4095
// COUNT: 3 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kmalloc_big_oob_right(void)
{
	size_t size = 4096 - 256, size2 = 4095;
	char *ptr = malloc(size); int aline = __LINE__;
	char *ptr2 = malloc(size2); int aline2 = __LINE__;

	OPTIMIZER_HIDE_VAR(ptr);
	OPTIMIZER_HIDE_VAR(ptr2);
	KASAN_EXPECT_FAIL(ptr[size] = 0, .type = "slab-out-of-bounds", .rw = "Write", .size = 1, .addr = ptr + size, .obj = ptr, .obj_size = size, .alloc_line = aline);
	KASAN_EXPECT_FAIL(ptr2[size2] = 0, .type = "slab-out-of-bounds", .rw = "Write", .size = 1, .addr = ptr2 + size2, .obj = ptr2, .obj_size = size2, .alloc_line = aline2);
	free(ptr2); int fline2 = __LINE__;
	KASAN_EXPECT_FAIL(kasan_int_result = ((volatile char *)ptr2)[size2 - 1], .type = "slab-use-after-free", .rw = "Read", .size = 1, .addr = ptr2 + size2 - 1, .obj = ptr2, .obj_size = size2, .freed = 1, .alloc_line = aline2, .free_line = fline2);
	free(ptr);
}

int main(void)
{
	kmalloc_big_oob_right();
	return 0;
}
