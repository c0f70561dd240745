// MODE: generic
// VARIANTS: gcc clang gcc-outline clang-outline
// The kernel's kmalloc_large_oob_right: a write just past an object too big
// for a slab cache (128 KiB + 10 here), which gets pages of its own with a
// page redzone after it. The kernel still calls this slab-out-of-bounds
// (shadow FE).
// EXPECT: BUG: KASAN: slab-out-of-bounds in kmalloc_large_oob_right+0x
// EXPECT-RE: ^Write of size 1 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: The buggy address is located 0 bytes to the right of
// EXPECT: allocated 131082-byte region
// NOT: Freed by task
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kmalloc_large_oob_right(void)
{
	size_t size = (128 << 10) + 10;
	char *ptr = malloc(size); int aline = __LINE__;

	OPTIMIZER_HIDE_VAR(ptr);
	KASAN_EXPECT_FAIL(ptr[size] = 0, .type = "slab-out-of-bounds", .rw = "Write", .size = 1, .addr = ptr + size, .obj = ptr, .obj_size = size, .cache = "malloc-large", .alloc_line = aline);
	free(ptr);
}

int main(void)
{
	kmalloc_large_oob_right();
	return 0;
}
