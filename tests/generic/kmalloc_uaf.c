// MODE: generic
// VARIANTS: gcc clang gcc-outline clang-outline
// The kernel's kmalloc_uaf: a read of byte 8 of a freed 10-byte object.
// EXPECT: BUG: KASAN: slab-use-after-free in kmalloc_uaf+0x
// EXPECT-RE: ^Read of size 1 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: Allocated by task
// EXPECT: Freed by task
// EXPECT: The buggy address is located 8 bytes inside of
// EXPECT: freed 10-byte region
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kmalloc_uaf(void)
{
	size_t size = 10;
	char *ptr = malloc(size); int aline = __LINE__;

	free(ptr); int fline = __LINE__;
	KASAN_EXPECT_FAIL(kasan_int_result = ((volatile char *)ptr)[8], .type = "slab-use-after-free", .rw = "Read", .size = 1, .addr = ptr + 8, .obj = ptr, .obj_size = size, .freed = 1, .alloc_line = aline, .free_line = fline);
}

int main(void)
{
	kmalloc_uaf();
	return 0;
}
