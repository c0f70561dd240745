// MODE: sw_tags
// VARIANTS: gcc clang clang-outline clang-calls
// HWASAN: caught -- the byte before the object is not its granule
// The kernel's kmalloc_oob_left: a read one byte before a 15-byte object,
// in the header granule the runtime keeps before every small object
// (tagged invalid, 0xfe).
// EXPECT: BUG: KASAN: slab-out-of-bounds in kmalloc_oob_left+0x
// EXPECT: Pointer tag: [
// EXPECT: memory tag: [fe]
// EXPECT: The buggy address is located 1 bytes to the left of
// EXPECT: allocated 15-byte region
// NOT: Freed by task
// COUNT: 1 BUG: KASAN:
#include "tags_test.h"

TAGS_TEST void kmalloc_oob_left(void)
{
	size_t size = 15;
	char *ptr = malloc(size); int aline = __LINE__;

	OPTIMIZER_HIDE_VAR(ptr);
	TAGS_EXPECT_FAIL(*ptr = *(ptr - 1), .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = ptr - 1, .obj = ptr, .obj_size = size, .alloc_line = aline);
	free(ptr);
}

int main(int argc, char **argv)
{
	tags_select(argc, argv);
	kmalloc_oob_left();
	return 0;
}
