// MODE: generic
// The kernel's kmalloc_uaf_memset: memset of a freed 33-byte object is a
// slab-use-after-free write of the whole range. (That the object is left
// intact afterwards is checked by _kmalloc_uaf_memset.c.)
// EXPECT: BUG: KASAN: slab-use-after-free in kmalloc_uaf_memset+0x
// EXPECT-RE: ^Write of size 33 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: Freed by task
// EXPECT: freed 33-byte region
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kmalloc_uaf_memset(void)
{
	size_t size = 33;
	char *ptr = malloc(size); int aline = __LINE__;

	OPTIMIZER_HIDE_VAR(size);
	free(ptr); int fline = __LINE__;
	KASAN_EXPECT_FAIL(memset(ptr, 0, size), .type = "slab-use-after-free", .rw = "Write", .size = 33, .addr = ptr, .obj = ptr, .obj_size = size, .freed = 1, .alloc_line = aline, .free_line = fline);
}

int main(void)
{
	kmalloc_uaf_memset();
	return 0;
}
