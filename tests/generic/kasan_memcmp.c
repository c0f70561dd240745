// MODE: generic
// The kernel's kasan_memcmp: memcmp of a zeroed 24-byte object with a
// zeroed 36-byte array over 25 bytes. The whole range is checked, from its
// start, even though the bytes are equal up to the end of the object.
// EXPECT: BUG: KASAN: slab-out-of-bounds in kasan_memcmp+0x
// EXPECT-RE: ^Read of size 25 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: which belongs to the cache calloc of size 24
// EXPECT: The buggy address is located 0 bytes inside of
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kasan_memcmp(void)
{
	size_t size = 24;
	int arr[9];
	char *ptr = calloc(1, size); int aline = __LINE__;

	memset(arr, 0, sizeof(arr));
	OPTIMIZER_HIDE_VAR(ptr);
	OPTIMIZER_HIDE_VAR(size);
	KASAN_EXPECT_FAIL(kasan_int_result = memcmp(ptr, arr, size + 1), .type = "slab-out-of-bounds", .rw = "Read", .size = 25, .addr = ptr, .bad = ptr + size, .obj = ptr, .obj_size = size, .cache = "calloc", .alloc_line = aline);
	free(ptr);
}

int main(void)
{
	kasan_memcmp();
	return 0;
}
