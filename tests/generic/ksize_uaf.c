// MODE: generic
// RUN: kasan_multi_shot
// The kernel's ksize_uaf, with malloc_usable_size for ksize: asking for the
// size of a freed object is itself a use-after-free (the kernel's ksize
// checks the object's first byte; AddressSanitizer reports it too), and so
// are plain reads of it afterwards.
// EXPECT: BUG: KASAN: slab-use-after-free in ksize_uaf+0x
// EXPECT-RE: ^Read of size 1 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: BUG: KASAN: slab-use-after-free in ksize_uaf+0x
// EXPECT: BUG: KASAN: slab-use-after-free in ksize_uaf+0x
// COUNT: 3 BUG: KASAN:
#include "kasan_test.h"

#include <malloc.h>

KASAN_TEST void ksize_uaf(void)
{
	size_t size = 128 - 8;
	char *ptr = malloc(size); int aline = __LINE__;

	free(ptr); int fline = __LINE__;
	OPTIMIZER_HIDE_VAR(ptr);
	KASAN_EXPECT_FAIL(kasan_int_result = malloc_usable_size(ptr), .type = "slab-use-after-free", .rw = "Read", .size = 1, .addr = ptr, .obj = ptr, .obj_size = size, .freed = 1, .alloc_line = aline, .free_line = fline);
	KASAN_EXPECT_FAIL(kasan_int_result = ((volatile char *)ptr)[0], .type = "slab-use-after-free", .rw = "Read", .size = 1, .addr = ptr, .obj = ptr, .obj_size = size, .freed = 1, .alloc_line = aline, .free_line = fline);
	KASAN_EXPECT_FAIL(kasan_int_result = ((volatile char *)ptr)[size - 1], .type = "slab-use-after-free", .rw = "Read", .size = 1, .addr = ptr + size - 1, .obj = ptr, .obj_size = size, .freed = 1, .alloc_line = aline, .free_line = fline);
}

int main(void)
{
	ksize_uaf();
	return 0;
}
