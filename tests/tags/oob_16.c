// MODE: sw_tags
// VARIANTS: gcc clang clang-outline clang-calls
// RUN: kasan_multi_shot
// HWASAN: hwasan-only caught -- HWASan has short granules: its 13-byte object ends at byte 13, ours (as the kernel's) owns the whole granule
// The kernel's kmalloc_oob_16, which it runs in generic mode only: a
// 16-byte store into a 13-byte object stays inside the object's one
// granule, so the tag modes do not see it (the first case: no report).
// The second case stores 16 bytes one granule further, past a 16-byte
// object: caught, as a 16-byte write.
// EXPECT: BUG: KASAN: slab-out-of-bounds in kmalloc_oob_16+0x
// EXPECT: Write of size 16 at addr
// EXPECT: The buggy address is located 0 bytes to the right of
// EXPECT: allocated 16-byte region
// COUNT: 1 BUG: KASAN:
#include "tags_test.h"

struct words {
	uint64_t w[2];
};

TAGS_TEST void kmalloc_oob_16(void)
{
	struct words *ptr1 = malloc(sizeof(*ptr1) - 3);
	struct words *ptr2 = malloc(sizeof(*ptr2)); int aline = __LINE__;
	struct words v = {{1, 2}};

	OPTIMIZER_HIDE_VAR(ptr1);
	OPTIMIZER_HIDE_VAR(ptr2);
	TAGS_CASE {
		*(volatile struct words *)ptr1 = v; /* not caught: one granule */
	}
	TAGS_CASE {
		TAGS_EXPECT_FAIL(*(volatile struct words *)(ptr2 + 1) = v, .type = "slab-out-of-bounds", .rw = "Write", .size = 16, .addr = ptr2 + 1, .obj = ptr2, .obj_size = 16, .alloc_line = aline);
	}
	free(ptr1);
	free(ptr2);
}

int main(int argc, char **argv)
{
	tags_select(argc, argv);
	kmalloc_oob_16();
	return 0;
}
