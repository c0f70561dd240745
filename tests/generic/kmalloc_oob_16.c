// MODE: generic
// VARIANTS: gcc clang gcc-outline clang-outline
// The kernel's kmalloc_oob_16: copy a 16-byte struct into a 13-byte object.
// EXPECT: BUG: KASAN: slab-out-of-bounds in kmalloc_oob_16+0x
// EXPECT: which belongs to the cache malloc of size 13
// NOT: Freed by task
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

struct words {
	uint64_t words[2];
};

KASAN_TEST void kmalloc_oob_16(void)
{
	struct words *ptr1 = malloc(sizeof(*ptr1) - 3); int aline = __LINE__;
	struct words *ptr2 = malloc(sizeof(*ptr2));

	OPTIMIZER_HIDE_VAR(ptr1);
	OPTIMIZER_HIDE_VAR(ptr2);
	memset(ptr2, 0, sizeof(*ptr2));
	KASAN_EXPECT_FAIL(*ptr1 = *ptr2, .type = "slab-out-of-bounds", .rw = "Write", .size = 16, .addr = ptr1, .obj = ptr1, .obj_size = 13, .alloc_line = aline);
	free(ptr1);
	free(ptr2);
}

int main(void)
{
	kmalloc_oob_16();
	return 0;
}
