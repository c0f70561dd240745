// MODE: generic
// VARIANTS: gcc clang gcc-outline clang-outline
// The kernel's kmalloc_uaf_16: copy a 16-byte struct out of a freed object.
// EXPECT: BUG: KASAN: slab-use-after-free in kmalloc_uaf_16+0x
// EXPECT: freed 16-byte region
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

struct words {
	uint64_t words[2];
};

KASAN_TEST void kmalloc_uaf_16(void)
{
	struct words *ptr1 = malloc(sizeof(*ptr1));
	struct words *ptr2 = malloc(sizeof(*ptr2)); int aline = __LINE__;

	OPTIMIZER_HIDE_VAR(ptr1);
	OPTIMIZER_HIDE_VAR(ptr2);
	free(ptr2); int fline = __LINE__;
	KASAN_EXPECT_FAIL(*ptr1 = *ptr2, .type = "slab-use-after-free", .rw = "Read", .size = 16, .addr = ptr2, .obj = ptr2, .obj_size = 16, .freed = 1, .alloc_line = aline, .free_line = fline);
	free(ptr1);
}

int main(void)
{
	kmalloc_uaf_16();
	return 0;
}
