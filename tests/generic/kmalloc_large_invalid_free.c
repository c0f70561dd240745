// MODE: generic
// The kernel's kmalloc_large_invalid_free: freeing a pointer one byte into a
// page-backed object is an invalid free; the object stays allocated.
// EXPECT: BUG: KASAN: invalid-free in kmalloc_large_invalid_free+0x
// EXPECT-RE: ^Free of addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: The buggy address is located 1 bytes inside of
// EXPECT: allocated 131082-byte region
// NOT: Freed by task
// NOT: double-free
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kmalloc_large_invalid_free(void)
{
	size_t size = (128 << 10) + 10;
	char *ptr = malloc(size); int aline = __LINE__;

	OPTIMIZER_HIDE_VAR(ptr);
	KASAN_EXPECT_FAIL(free(ptr + 1), .type = "invalid-free", .rw = "Free", .addr = ptr + 1, .obj = ptr, .obj_size = size, .cache = "malloc-large", .alloc_line = aline);
	/* Still allocated: no report for these. */
	ptr[0] = ptr[size - 1] = 1;
	free(ptr);
}

int main(void)
{
	kmalloc_large_invalid_free();
	return 0;
}
