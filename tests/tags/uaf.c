// MODE: sw_tags
// VARIANTS: gcc clang clang-outline clang-calls
// RUN: kasan_multi_shot
// HWASAN: caught caught -- freed memory is retagged
// The kernel's kmalloc_uaf and kmalloc_uaf_memset for the tag modes: a read
// and a write after free. free retags the object invalid (0xfe), which no
// pointer carries; the report names the free.
// EXPECT: BUG: KASAN: slab-use-after-free in kmalloc_uaf+0x
// EXPECT: memory tag: [fe]
// EXPECT: freed 10-byte region
// EXPECT: BUG: KASAN: slab-use-after-free in kmalloc_uaf+0x
// EXPECT: freed 33-byte region
// COUNT: 2 BUG: KASAN:
#include "tags_test.h"

TAGS_TEST void kmalloc_uaf(void)
{
	TAGS_CASE {
		char *ptr = malloc(10); int aline = __LINE__;
		free(ptr); int fline = __LINE__;
		TAGS_EXPECT_FAIL(tags_int_result = ((volatile char *)ptr)[8], .type = "slab-use-after-free", .rw = "Read", .size = 1, .addr = ptr + 8, .obj = ptr, .obj_size = 10, .freed = 1, .alloc_line = aline, .free_line = fline);
	}
	TAGS_CASE {
		char *ptr = malloc(33); int aline = __LINE__;
		free(ptr); int fline = __LINE__;
		TAGS_EXPECT_FAIL(((volatile uint32_t *)ptr)[4] = 0x12345678, .type = "slab-use-after-free", .rw = "Write", .size = 4, .addr = ptr + 16, .obj = ptr, .obj_size = 33, .freed = 1, .alloc_line = aline, .free_line = fline);
	}
}

int main(int argc, char **argv)
{
	tags_select(argc, argv);
	kmalloc_uaf();
	return 0;
}
