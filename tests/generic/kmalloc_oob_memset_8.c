// MODE: generic
// The kernel's kmalloc_oob_memset_8: a 8-byte memset whose last byte is
// the first past a 120-byte object. The size is hidden from the compiler, so
// this is a call (checked memset, or clang's __asan_memset), which must
// check the whole range, not only its start.
// EXPECT: BUG: KASAN: slab-out-of-bounds in kmalloc_oob_memset_8+0x
// EXPECT-RE: ^Write of size 8 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: The buggy address is located 113 bytes inside of
// EXPECT: allocated 120-byte region
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kmalloc_oob_memset_8(void)
{
	size_t size = 128 - 8, memset_size = 8;
	char *ptr = malloc(size); int aline = __LINE__;

	OPTIMIZER_HIDE_VAR(ptr);
	OPTIMIZER_HIDE_VAR(size);
	OPTIMIZER_HIDE_VAR(memset_size);
	KASAN_EXPECT_FAIL(memset(ptr + size - 7, 0, memset_size), .type = "slab-out-of-bounds", .rw = "Write", .size = 8, .addr = ptr + size - 7, .bad = ptr + size, .obj = ptr, .obj_size = size, .alloc_line = aline);
	free(ptr);
}

int main(void)
{
	kmalloc_oob_memset_8();
	return 0;
}
