// MODE: generic
// RUN: kasan_multi_shot
// The kernel's ksize_unpoisons_memory, with malloc_usable_size for ksize:
// asking for the usable size must not make the slack after the requested
// 115 bytes accessible. The byte past the object, the next granule, and the
// last usable byte if it lies beyond the request, all stay out of bounds.
// EXPECT: BUG: KASAN: slab-out-of-bounds in ksize_unpoisons_memory+0x
// EXPECT: The buggy address is located 0 bytes to the right of
// EXPECT: BUG: KASAN: slab-out-of-bounds in ksize_unpoisons_memory+0x
// EXPECT: The buggy address is located 5 bytes to the right of
// EXPECT: allocated 115-byte region
#include "kasan_test.h"

#include <malloc.h>

KASAN_TEST void ksize_unpoisons_memory(void)
{
	size_t size = 128 - 8 - 5;
	char *ptr = malloc(size); int aline = __LINE__;
	size_t real_size = malloc_usable_size(ptr);

	if (real_size < size)
		kasan_test_fail("malloc_usable_size is smaller than the request");
	OPTIMIZER_HIDE_VAR(ptr);
	ptr[0] = 'x';
	ptr[size - 1] = 'x';
	KASAN_EXPECT_FAIL(kasan_int_result = ((volatile char *)ptr)[size], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = ptr + size, .obj = ptr, .obj_size = size, .alloc_line = aline);
	KASAN_EXPECT_FAIL(kasan_int_result = ((volatile char *)ptr)[size + 5], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = ptr + size + 5, .obj = ptr, .obj_size = size, .alloc_line = aline);
	if (real_size > size)
		KASAN_EXPECT_FAIL(kasan_int_result = ((volatile char *)ptr)[real_size - 1], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = ptr + real_size - 1, .obj = ptr, .obj_size = size, .alloc_line = aline);
	printf("reports: %d\n", real_size > size ? 3 : 2);
	free(ptr);
}

int main(void)
{
	ksize_unpoisons_memory();
	return 0;
}
