// MODE: generic
// VARIANTS: gcc clang gcc-outline clang-outline
// The kernel's kmalloc_oob_left: a read one byte before a 15-byte object,
// from its left redzone.
// EXPECT: BUG: KASAN: slab-out-of-bounds in kmalloc_oob_left+0x
// EXPECT-RE: ^Read of size 1 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: which belongs to the cache malloc of size 15
// EXPECT: The buggy address is located 1 bytes to the left of
// EXPECT: allocated 15-byte region
// NOT: Freed by task
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kmalloc_oob_left(void)
{
	size_t size = 15;
	char *ptr = malloc(size); int aline = __LINE__;

	OPTIMIZER_HIDE_VAR(ptr);
	KASAN_EXPECT_FAIL(*ptr = *(volatile char *)(ptr - 1), .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = ptr - 1, .obj = ptr, .obj_size = size, .alloc_line = aline);
	free(ptr);
}

int main(void)
{
	kmalloc_oob_left();
	return 0;
}
