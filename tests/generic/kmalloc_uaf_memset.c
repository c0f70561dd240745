// MODE: generic
// RUN: kasan_multi_shot
// The kernel's kmalloc_uaf_memset, what follows the report: the kernel's
// checked memset returns without writing when the check fails, so the freed
// object (and the free record KASAN keeps in it) is left intact: a later
// access still names the freeing task and stack. (Starts with '_': the
// runtime's memset writes anyway, and the next report says "Freed by task 0:
// (stack is not available)".)
// EXPECT: BUG: KASAN: slab-use-after-free in kmalloc_uaf_memset+0x
// EXPECT-RE: ^Write of size 33 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: freed 33-byte region
// EXPECT: BUG: KASAN: slab-use-after-free in kmalloc_uaf_memset+0x
// NOT: (stack is not available)
// COUNT: 2 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kmalloc_uaf_memset(void)
{
	size_t size = 33;
	char *ptr = malloc(size); int aline = __LINE__;

	OPTIMIZER_HIDE_VAR(size);
	free(ptr); int fline = __LINE__;
	KASAN_EXPECT_FAIL(memset(ptr, 0, size), .type = "slab-use-after-free", .rw = "Write", .size = 33, .addr = ptr, .obj = ptr, .obj_size = size, .freed = 1, .alloc_line = aline, .free_line = fline);
	KASAN_EXPECT_FAIL(kasan_int_result = ((volatile char *)ptr)[32], .type = "slab-use-after-free", .rw = "Read", .size = 1, .addr = ptr + 32, .obj = ptr, .obj_size = size, .freed = 1, .alloc_line = aline, .free_line = fline);
}

int main(void)
{
	kmalloc_uaf_memset();
	return 0;
}
