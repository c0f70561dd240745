// MODE: generic
// RUN: kasan_multi_shot
// The kernel's kmem_cache_invalid_free and mempool_kmalloc_invalid_free:
// free of a pointer one byte into a live object. It is an invalid free (not
// a double free), and the object stays allocated: it can still be used and
// freed properly.
// EXPECT: BUG: KASAN: invalid-free in kmalloc_invalid_free+0x
// EXPECT-RE: ^Free of addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: The buggy address is located 1 bytes inside of
// EXPECT: allocated 200-byte region
// NOT: double-free
// NOT: Freed by task
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kmalloc_invalid_free(void)
{
	size_t size = 200;
	char *ptr = malloc(size); int aline = __LINE__;

	OPTIMIZER_HIDE_VAR(ptr);
	KASAN_EXPECT_FAIL(free(ptr + 1), .type = "invalid-free", .rw = "Free", .addr = ptr + 1, .obj = ptr, .obj_size = size, .alloc_line = aline);
	ptr[0] = ptr[size - 1] = 1;
	free(ptr);
}

int main(void)
{
	kmalloc_invalid_free();
	return 0;
}
