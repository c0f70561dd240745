// MODE: sw_tags
// VARIANTS: gcc clang clang-outline clang-calls
// RUN: kasan_multi_shot
// HWASAN: caught caught -- both accesses are past the object's last granule
// The kernel's kmalloc_oob_right for the tag modes: size = 128 - 16 - 5, so
// the object owns 7 granules. ptr[size] is in its last granule, a short
// granule (11 bytes the object's: caught, as HWASan does; the kernel's
// whole granules let it pass); ptr[size + 5] is the first byte of the
// next granule (the object's right neighbour, never its tag);
// ptr[size + 16 + 5] reads past the aligned 128 bytes, into whatever
// follows (caught: not the object's tag; the report may describe another
// object there, so only the access is asserted).
// EXPECT: BUG: KASAN: slab-out-of-bounds in kmalloc_oob_right+0x
// EXPECT: The buggy address is located 0 bytes to the right of
// EXPECT: allocated 107-byte region
// EXPECT: BUG: KASAN: slab-out-of-bounds in kmalloc_oob_right+0x
// EXPECT: The buggy address is located 5 bytes to the right of
// EXPECT: allocated 107-byte region
// COUNT: 3 BUG: KASAN:
#include "tags_test.h"

TAGS_TEST void kmalloc_oob_right(void)
{
	size_t size = 128 - TAGS_GRANULE - 5;
	char *ptr = malloc(size); int aline = __LINE__;

	OPTIMIZER_HIDE_VAR(ptr);
	TAGS_CASE {
		TAGS_EXPECT_FAIL(ptr[size] = 'x', .type = "slab-out-of-bounds", .rw = "Write", .size = 1, .addr = ptr + size, .obj = ptr, .obj_size = size, .alloc_line = aline);
		TAGS_EXPECT_FAIL(ptr[size + 5] = 'y', .type = "slab-out-of-bounds", .rw = "Write", .size = 1, .addr = ptr + size + 5, .obj = ptr, .obj_size = size, .alloc_line = aline);
	}
	TAGS_CASE {
		TAGS_EXPECT_FAIL(tags_int_result = ((volatile char *)ptr)[size + TAGS_GRANULE + 5], .rw = "Read", .size = 1, .addr = ptr + size + TAGS_GRANULE + 5);
	}
	free(ptr);
}

int main(int argc, char **argv)
{
	tags_select(argc, argv);
	kmalloc_oob_right();
	return 0;
}
