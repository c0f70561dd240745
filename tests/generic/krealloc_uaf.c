// MODE: generic
// RUN: kasan_multi_shot
// The kernel's krealloc_uaf, the bug type (krealloc_uaf.c checks the rest):
// the kernel's krealloc checks the object's first byte (kasan_check_byte),
// so its report for a freed object is a slab-use-after-free read of size 1
// in the caller, not a double-free. Then a plain read of the object is
// reported too. (Starts with '_': the runtime reports a double-free.)
// EXPECT: BUG: KASAN: slab-use-after-free in krealloc_uaf+0x
// EXPECT-RE: ^Read of size 1 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: BUG: KASAN: slab-use-after-free in krealloc_uaf+0x
// EXPECT: freed 201-byte region
// NOT: double-free
// COUNT: 2 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void krealloc_uaf(void)
{
	size_t size1 = 201, size2 = 235;
	char *ptr2 = (char *)1;
	char *ptr1 = malloc(size1); int aline = __LINE__;

	free(ptr1); int fline = __LINE__;
	KASAN_EXPECT_FAIL(ptr2 = realloc(ptr1, size2), .type = "slab-use-after-free", .rw = "Read", .size = 1, .addr = ptr1, .obj = ptr1, .obj_size = size1, .freed = 1, .alloc_line = aline, .free_line = fline);
	if (ptr2)
		kasan_test_fail("realloc of a freed object did not return NULL");
	KASAN_EXPECT_FAIL(kasan_int_result = *(volatile char *)ptr1, .type = "slab-use-after-free", .rw = "Read", .size = 1, .addr = ptr1, .obj = ptr1, .obj_size = size1, .freed = 1, .alloc_line = aline, .free_line = fline);
}

int main(void)
{
	krealloc_uaf();
	return 0;
}
