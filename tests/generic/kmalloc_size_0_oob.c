// MODE: generic
// malloc(0) returns a unique pointer to an empty object (the kernel's
// kmalloc(0) returns ZERO_SIZE_PTR instead, and an access is a
// null-ptr-deref): reading its first byte is a slab-out-of-bounds. (Which
// object the report describes is checked by _kmalloc_size_0_oob.c.)
// EXPECT: BUG: KASAN: slab-out-of-bounds in kmalloc_size_0_oob+0x
// EXPECT-RE: ^Read of size 1 at addr [0-9a-f]{16} by task \S+/\d+$
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kmalloc_size_0_oob(void)
{
	char *ptr = malloc(0);

	if (!ptr)
		kasan_test_fail("malloc(0) returned NULL");
	OPTIMIZER_HIDE_VAR(ptr);
	KASAN_EXPECT_FAIL(kasan_int_result = ((volatile char *)ptr)[0], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = ptr);
	free(ptr);
}

int main(void)
{
	kmalloc_size_0_oob();
	return 0;
}
