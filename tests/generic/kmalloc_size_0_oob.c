// MODE: generic
// A read of the first byte of an empty object from malloc(0) is reported
// against that object: "0 bytes to the right of allocated 0-byte region".
// (Starts with '_': the runtime never finds an object whose shadow is all
// redzone, and describes the nearest other object instead, e.g. "32 bytes to
// the left of freed 472-byte region".)
// EXPECT: BUG: KASAN: slab-out-of-bounds in kmalloc_size_0_oob+0x
// EXPECT: which belongs to the cache malloc of size 0
// EXPECT: The buggy address is located 0 bytes to the right of
// EXPECT: allocated 0-byte region
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kmalloc_size_0_oob(void)
{
	char *ptr = malloc(0); int aline = __LINE__;

	if (!ptr)
		kasan_test_fail("malloc(0) returned NULL");
	OPTIMIZER_HIDE_VAR(ptr);
	KASAN_EXPECT_FAIL(kasan_int_result = ((volatile char *)ptr)[0], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = ptr, .obj = ptr, .obj_size = 0, .alloc_line = aline);
	free(ptr);
}

int main(void)
{
	kmalloc_size_0_oob();
	return 0;
}
