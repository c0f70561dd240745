// MODE: generic
// The kernel's kmalloc_memmove_negative_size, what follows the report: a
// memmove of (size_t)-2 bytes, a range that wraps around the address space. The kernel's checked memmove returns without copying
// when its check fails, so the object is left as it was. (Starts with '_':
// the runtime's memmove, and clang's __asan_memmove, copy anyway; for a
// negative size glibc then scribbles over the object and far past it.)
// EXPECT: BUG: KASAN: out-of-bounds in kmalloc_memmove_negative_size+0x
// EXPECT: untouched
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kmalloc_memmove_negative_size(void)
{
	size_t size = 64, invalid_size = (size_t)-2;
	char *ptr = malloc(size); int aline = __LINE__;
	int changed = 0;

	for (size_t i = 0; i < size; i++)
		ptr[i] = (char)i;
	OPTIMIZER_HIDE_VAR(ptr);
	OPTIMIZER_HIDE_VAR(invalid_size);
	KASAN_EXPECT_FAIL(memmove(ptr, ptr + 4, invalid_size), .type = "out-of-bounds", .rw = "Read", .size = (size_t)-2, .addr = ptr + 4, .obj = ptr, .obj_size = size, .alloc_line = aline);
	for (size_t i = 0; i < size; i++)
		changed += ptr[i] != (char)i;
	if (changed)
		kasan_test_fail("memmove wrote to the object after a failed check");
	fprintf(stderr, "untouched\n");
	free(ptr);
}

int main(void)
{
	kmalloc_memmove_negative_size();
	return 0;
}
