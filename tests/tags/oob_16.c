// MODE: sw_tags
// VARIANTS: gcc clang clang-outline clang-calls
// RUN: kasan_multi_shot
// HWASAN: caught caught -- both have short granules: a 13-byte object's granule holds 13 in the shadow and the tag in its last byte
// The kernel's kmalloc_oob_16, which it runs in generic mode only (its tag
// granules are whole): a 16-byte store into a 13-byte object. Here, as in
// HWASan, the object's one granule is a short granule, so the store's
// last 3 bytes are caught. The second case stores 16 bytes one granule
// further, past a 16-byte object.
// EXPECT: BUG: KASAN: slab-out-of-bounds in kmalloc_oob_16+0x
// EXPECT: Write of size 16 at addr
// EXPECT: allocated 13-byte region
// EXPECT: BUG: KASAN: slab-out-of-bounds in kmalloc_oob_16+0x
// EXPECT: Write of size 16 at addr
// EXPECT: The buggy address is located 0 bytes to the right of
// EXPECT: allocated 16-byte region
// COUNT: 2 BUG: KASAN:
#include "tags_test.h"

struct words {
	uint64_t w[2];
};

TAGS_TEST void kmalloc_oob_16(void)
{
	struct words *ptr1 = malloc(sizeof(*ptr1) - 3); int aline1 = __LINE__;
	struct words *ptr2 = malloc(sizeof(*ptr2)); int aline = __LINE__;
	struct words v = {{1, 2}};

	OPTIMIZER_HIDE_VAR(ptr1);
	OPTIMIZER_HIDE_VAR(ptr2);
	TAGS_CASE {
		TAGS_EXPECT_FAIL(*(volatile struct words *)ptr1 = v, .type = "slab-out-of-bounds", .rw = "Write", .size = 16, .addr = ptr1, .obj = ptr1, .obj_size = 13, .alloc_line = aline1);
	}
	TAGS_CASE {
		TAGS_EXPECT_FAIL(*(volatile struct words *)(ptr2 + 1) = v, .type = "slab-out-of-bounds", .rw = "Write", .size = 16, .addr = ptr2 + 1, .obj = ptr2, .obj_size = 16, .alloc_line = aline);
	}
	/* Not ptr1: the store overwrote its granule's last byte, which holds
	 * a short granule's tag, so its free would be refused as a foreign
	 * tag's (HWASan's too). */
	free(ptr2);
}

int main(int argc, char **argv)
{
	tags_select(argc, argv);
	kmalloc_oob_16();
	return 0;
}
