// MODE: generic
// The kernel's kmalloc_double_kzfree (and kmem_cache_double_free): freeing
// a 16-byte object twice. The second free is a double-free, reported with
// the object's allocation and first free.
// EXPECT: BUG: KASAN: double-free in kmalloc_double_kzfree+0x
// EXPECT-RE: ^Free of addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: Allocated by task
// EXPECT: Freed by task
// EXPECT: The buggy address is located 0 bytes inside of
// EXPECT: freed 16-byte region
// NOT: invalid-free
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kmalloc_double_kzfree(void)
{
	size_t size = 16;
	char *ptr = malloc(size); int aline = __LINE__;

	memset(ptr, 0, size);
	free(ptr); int fline = __LINE__;
	KASAN_EXPECT_FAIL(free(ptr), .type = "double-free", .rw = "Free", .addr = ptr, .obj = ptr, .obj_size = size, .freed = 1, .alloc_line = aline, .free_line = fline);
}

int main(void)
{
	kmalloc_double_kzfree();
	return 0;
}
