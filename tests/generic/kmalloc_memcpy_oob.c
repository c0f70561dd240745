// MODE: generic
// RUN: kasan_multi_shot
// memcpy whose size runs past the end of an object, as source (a read) and
// as destination (a write): each is reported from the start of the range.
// (The kernel's memset/memmove cases, for memcpy.)
// EXPECT: BUG: KASAN: slab-out-of-bounds in kmalloc_memcpy_oob+0x
// EXPECT-RE: ^Read of size 41 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: The buggy address is located 0 bytes inside of
// EXPECT: allocated 40-byte region
// EXPECT: BUG: KASAN: slab-out-of-bounds in kmalloc_memcpy_oob+0x
// EXPECT-RE: ^Write of size 41 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: The buggy address is located 0 bytes inside of
// EXPECT: allocated 40-byte region
// COUNT: 2 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kmalloc_memcpy_oob(void)
{
	size_t size = 40, n = size + 1;
	char *src = malloc(size); int aline_src = __LINE__;
	char *dst = malloc(size); int aline_dst = __LINE__;
	char big[64] = {0};

	memset(src, 'a', size);
	OPTIMIZER_HIDE_VAR(src);
	OPTIMIZER_HIDE_VAR(dst);
	OPTIMIZER_HIDE_VAR(n);
	KASAN_EXPECT_FAIL(memcpy(big, src, n), .type = "slab-out-of-bounds", .rw = "Read", .size = 41, .addr = src, .bad = src + size, .obj = src, .obj_size = size, .alloc_line = aline_src);
	KASAN_EXPECT_FAIL(memcpy(dst, big, n), .type = "slab-out-of-bounds", .rw = "Write", .size = 41, .addr = dst, .bad = dst + size, .obj = dst, .obj_size = size, .alloc_line = aline_dst);
	free(src);
	free(dst);
}

int main(void)
{
	kmalloc_memcpy_oob();
	return 0;
}
