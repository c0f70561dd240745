// MODE: generic
// The kernel's kmalloc_uaf2: free a 43-byte object, allocate another of the
// same size, then read the first. In the kernel the second object may reuse
// the slot but the quarantine keeps it from doing so; here too, even after
// a hundred more allocations of the same size, the freed object is still
// quarantined, so the read is caught and the pointers differ.
// EXPECT: BUG: KASAN: slab-use-after-free in kmalloc_uaf2+0x
// EXPECT-RE: ^Read of size 1 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: The buggy address is located 40 bytes inside of
// EXPECT: freed 43-byte region
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kmalloc_uaf2(void)
{
	size_t size = 43;
	char *others[100];
	char *ptr1 = malloc(size); int aline = __LINE__;

	free(ptr1); int fline = __LINE__;
	char *ptr2 = malloc(size);
	for (int i = 0; i < 100; i++) {
		others[i] = malloc(size);
		if (others[i] == ptr1)
			kasan_test_fail("a freed object was reused while in quarantine");
	}
	KASAN_EXPECT_FAIL(kasan_int_result = ((volatile char *)ptr1)[40], .type = "slab-use-after-free", .rw = "Read", .size = 1, .addr = ptr1 + 40, .obj = ptr1, .obj_size = size, .freed = 1, .alloc_line = aline, .free_line = fline);
	if (ptr1 == ptr2)
		kasan_test_fail("ptr1 == ptr2");
	for (int i = 0; i < 100; i++)
		free(others[i]);
	free(ptr2);
}

int main(void)
{
	kmalloc_uaf2();
	return 0;
}
