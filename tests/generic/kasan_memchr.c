// MODE: generic
// The kernel's kasan_memchr: memchr for a byte that is not there, over one
// byte more than a zeroed 24-byte object. The checked memchr reports the
// range it searched, from its start, in the caller.
// EXPECT: BUG: KASAN: slab-out-of-bounds in kasan_memchr+0x
// EXPECT-RE: ^Read of size 25 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: which belongs to the cache calloc of size 24
// EXPECT: The buggy address is located 0 bytes inside of
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kasan_memchr(void)
{
	size_t size = 24;
	char *ptr = calloc(1, size); int aline = __LINE__;

	OPTIMIZER_HIDE_VAR(ptr);
	OPTIMIZER_HIDE_VAR(size);
	KASAN_EXPECT_FAIL(kasan_ptr_result = memchr(ptr, '1', size + 1), .type = "slab-out-of-bounds", .rw = "Read", .size = 25, .addr = ptr, .bad = ptr + size, .obj = ptr, .obj_size = size, .cache = "calloc", .alloc_line = aline);
	free(ptr);
}

int main(void)
{
	kasan_memchr();
	return 0;
}
