// MODE: generic
// The kernel's kmalloc_memmove_negative_size: memmove of (size_t)-2 bytes
// from inside a 64-byte object. The range wraps around the address space,
// which the kernel calls "out-of-bounds"; its checked memmove then returns
// without copying, so the program goes on.
// EXPECT: BUG: KASAN: out-of-bounds in kmalloc_memmove_negative_size+0x
// EXPECT-RE: ^Read of size 18446744073709551614 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: The buggy address is located 4 bytes inside of
// EXPECT: allocated 64-byte region
// EXPECT: after memmove
// NOT: slab-out-of-bounds
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kmalloc_memmove_negative_size(void)
{
	size_t size = 64, invalid_size = -2;
	char *ptr = malloc(size); int aline = __LINE__;

	memset(ptr, 0, 64);
	OPTIMIZER_HIDE_VAR(ptr);
	OPTIMIZER_HIDE_VAR(invalid_size);
	KASAN_EXPECT_FAIL(memmove(ptr, ptr + 4, invalid_size), .type = "out-of-bounds", .rw = "Read", .size = (size_t)-2, .addr = ptr + 4, .obj = ptr, .obj_size = size, .alloc_line = aline);
	fprintf(stderr, "after memmove\n");
	free(ptr);
}

int main(void)
{
	kmalloc_memmove_negative_size();
	return 0;
}
