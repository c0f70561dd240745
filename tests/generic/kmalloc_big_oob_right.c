// MODE: generic
// The kernel's kmalloc_big_oob_right: a write just past a big object (8 KiB
// less 256 bytes, the kernel's KMALLOC_MAX_CACHE_SIZE - 256), still a slab
// object here too (ukasan gives objects of 64 KiB and more their own pages).
// EXPECT: BUG: KASAN: slab-out-of-bounds in kmalloc_big_oob_right+0x
// EXPECT-RE: ^Write of size 1 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: which belongs to the cache malloc of size 7936
// EXPECT: The buggy address is located 0 bytes to the right of
// EXPECT: allocated 7936-byte region
// NOT: Freed by task
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kmalloc_big_oob_right(void)
{
	size_t size = 8192 - 256;
	char *ptr = malloc(size); int aline = __LINE__;

	OPTIMIZER_HIDE_VAR(ptr);
	KASAN_EXPECT_FAIL(ptr[size] = 0, .type = "slab-out-of-bounds", .rw = "Write", .size = 1, .addr = ptr + size, .obj = ptr, .obj_size = size, .alloc_line = aline);
	free(ptr);
}

int main(void)
{
	kmalloc_big_oob_right();
	return 0;
}
