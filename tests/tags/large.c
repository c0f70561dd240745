// MODE: sw_tags
// VARIANTS: gcc clang
// RUN: kasan_multi_shot
// HWASAN: caught caught caught caught -- large objects are tagged like small ones
// The kernel's kmalloc_big_oob_right, kmalloc_large_oob_right and
// kmalloc_large_uaf: objects of a page and more (8 KiB, glibc's heap) and
// of 128 KiB + 10 (glibc's mmap threshold: pages of their own), written
// past their last granule, and read after free. Large objects are
// "malloc-large" as in generic mode. The bug type of a large object's
// report is not asserted (the kernel's page allocations have no stack ring
// entry: it says invalid-access there); the tags, object and stacks are.
// EXPECT: BUG: KASAN:
// EXPECT: allocated 8192-byte region
// EXPECT: BUG: KASAN:
// EXPECT: allocated 131082-byte region
// EXPECT: BUG: KASAN:
// EXPECT: freed 8192-byte region
// EXPECT: BUG: KASAN:
// EXPECT: freed 131082-byte region
// COUNT: 4 BUG: KASAN:
#include "tags_test.h"

#define ROUND_UP(x) (((x) + TAGS_GRANULE - 1) & ~(TAGS_GRANULE - 1))

TAGS_TEST void kmalloc_large(void)
{
	TAGS_CASE {
		size_t size = 8192;
		char *ptr = malloc(size); int aline = __LINE__;
		OPTIMIZER_HIDE_VAR(ptr);
		ptr[0] = ptr[size - 1] = 1;
		TAGS_EXPECT_FAIL(ptr[size] = 0, .rw = "Write", .size = 1, .addr = ptr + size, .obj = ptr, .obj_size = size, .cache = "malloc-large", .alloc_line = aline);
		free(ptr);
	}
	TAGS_CASE {
		size_t size = (128 << 10) + 10;
		char *ptr = malloc(size); int aline = __LINE__;
		OPTIMIZER_HIDE_VAR(ptr);
		ptr[0] = ptr[size - 1] = 1;
		TAGS_EXPECT_FAIL(ptr[ROUND_UP(size)] = 0, .rw = "Write", .size = 1, .addr = ptr + ROUND_UP(size), .obj = ptr, .obj_size = size, .cache = "malloc-large", .alloc_line = aline);
		free(ptr);
	}
	TAGS_CASE {
		size_t size = 8192;
		char *ptr = malloc(size); int aline = __LINE__;
		free(ptr); int fline = __LINE__;
		TAGS_EXPECT_FAIL(tags_int_result = ((volatile char *)ptr)[4096], .rw = "Read", .size = 1, .addr = ptr + 4096, .obj = ptr, .obj_size = size, .cache = "malloc-large", .freed = 1, .alloc_line = aline, .free_line = fline);
	}
	TAGS_CASE {
		size_t size = (128 << 10) + 10;
		char *ptr = malloc(size); int aline = __LINE__;
		free(ptr); int fline = __LINE__;
		TAGS_EXPECT_FAIL(tags_int_result = ((volatile char *)ptr)[0], .rw = "Read", .size = 1, .addr = ptr, .obj = ptr, .obj_size = size, .cache = "malloc-large", .freed = 1, .alloc_line = aline, .free_line = fline);
	}
}

int main(int argc, char **argv)
{
	tags_select(argc, argv);
	kmalloc_large();
	return 0;
}
