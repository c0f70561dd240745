// MODE: generic
// VARIANTS: gcc clang gcc-outline clang-outline
// The kernel's kmalloc_large_uaf: a read of a freed page-backed object (128
// KiB + 10) is "use-after-free" (shadow FF, freed pages), not
// slab-use-after-free.
// EXPECT: BUG: KASAN: use-after-free in kmalloc_large_uaf+0x
// EXPECT-RE: ^Read of size 1 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: Allocated by task
// EXPECT: Freed by task
// EXPECT: The buggy address is located 0 bytes inside of
// EXPECT: freed 131082-byte region
// NOT: slab-use-after-free
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kmalloc_large_uaf(void)
{
	size_t size = (128 << 10) + 10;
	char *ptr = malloc(size); int aline = __LINE__;

	free(ptr); int fline = __LINE__;
	KASAN_EXPECT_FAIL(kasan_int_result = ((volatile char *)ptr)[0], .type = "use-after-free", .rw = "Read", .size = 1, .addr = ptr, .obj = ptr, .obj_size = size, .cache = "malloc-large", .freed = 1, .alloc_line = aline, .free_line = fline);
}

int main(void)
{
	kmalloc_large_uaf();
	return 0;
}
