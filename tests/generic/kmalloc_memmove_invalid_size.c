// MODE: generic
// The kernel's kmalloc_memmove_invalid_size: memmove of 64 bytes from 4
// bytes into a 64-byte object reads 4 bytes past its end. The source is
// checked first (a read), from its start.
// EXPECT: BUG: KASAN: slab-out-of-bounds in kmalloc_memmove_invalid_size+0x
// EXPECT-RE: ^Read of size 64 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: The buggy address is located 4 bytes inside of
// EXPECT: allocated 64-byte region
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kmalloc_memmove_invalid_size(void)
{
	size_t size = 64, invalid_size = size;
	char *ptr = malloc(size); int aline = __LINE__;

	memset(ptr, 0, 64);
	OPTIMIZER_HIDE_VAR(ptr);
	OPTIMIZER_HIDE_VAR(invalid_size);
	KASAN_EXPECT_FAIL(memmove(ptr, ptr + 4, invalid_size), .type = "slab-out-of-bounds", .rw = "Read", .size = 64, .addr = ptr + 4, .bad = ptr + size, .obj = ptr, .obj_size = size, .alloc_line = aline);
	free(ptr);
}

int main(void)
{
	kmalloc_memmove_invalid_size();
	return 0;
}
