// MODE: generic
// The kernel's kmalloc_oob_in_memset: memset of a whole 120-byte object plus
// one granule. The report gives the start of the access, inside the object.
// EXPECT: BUG: KASAN: slab-out-of-bounds in kmalloc_oob_in_memset+0x
// EXPECT-RE: ^Write of size 128 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: The buggy address is located 0 bytes inside of
// EXPECT: allocated 120-byte region
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kmalloc_oob_in_memset(void)
{
	size_t size = 128 - 8;
	char *ptr = malloc(size); int aline = __LINE__;

	OPTIMIZER_HIDE_VAR(ptr);
	OPTIMIZER_HIDE_VAR(size);
	KASAN_EXPECT_FAIL(memset(ptr, 0, size + 8), .type = "slab-out-of-bounds", .rw = "Write", .size = 128, .addr = ptr, .bad = ptr + size, .obj = ptr, .obj_size = size, .alloc_line = aline);
	free(ptr);
}

int main(void)
{
	kmalloc_oob_in_memset();
	return 0;
}
