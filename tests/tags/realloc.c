// MODE: sw_tags
// VARIANTS: gcc clang
// RUN: kasan_multi_shot
// HWASAN: caught caught caught -- past the new size, and the old pointer once realloc moved the object
// The kernel's krealloc_more_oob and krealloc_less_oob for the tag modes:
// after realloc the object's last byte is usable and the first granule
// past its new size is not (the object is of the "realloc" cache, the
// function family that made it); a shrunk object's old tail is no longer its.
// Third: realloc to a size that cannot stay in place moves the object, and
// the old pointer is freed (a use after free).
// EXPECT: BUG: KASAN: slab-out-of-bounds in krealloc_oob+0x
// EXPECT: allocated 235-byte region
// EXPECT: BUG: KASAN: slab-out-of-bounds in krealloc_oob+0x
// EXPECT: allocated 201-byte region
// EXPECT: BUG: KASAN: slab-use-after-free in krealloc_oob+0x
// EXPECT: freed 64-byte region
// NOT: TEST FAILED
// COUNT: 3 BUG: KASAN:
#include "tags_test.h"

#define ROUND_UP(x) (((x) + TAGS_GRANULE - 1) & ~(TAGS_GRANULE - 1))

TAGS_TEST void krealloc_oob(void)
{
	TAGS_CASE { /* more */
		size_t size1 = 201, size2 = 235;
		char *ptr1 = malloc(size1);
		char *ptr2 = realloc(ptr1, size2); int aline = __LINE__;
		OPTIMIZER_HIDE_VAR(ptr2);
		ptr2[size1 - 1] = 'x';
		ptr2[size2 - 1] = 'x'; /* in bounds */
		TAGS_EXPECT_FAIL(ptr2[ROUND_UP(size2)] = 'x', .type = "slab-out-of-bounds", .rw = "Write", .size = 1, .addr = ptr2 + ROUND_UP(size2), .obj = ptr2, .obj_size = size2, .cache = "realloc", .alloc_line = aline);
		free(ptr2);
	}
	TAGS_CASE { /* less */
		size_t size1 = 235, size2 = 201;
		char *ptr1 = malloc(size1);
		char *ptr2 = realloc(ptr1, size2); int aline = __LINE__;
		OPTIMIZER_HIDE_VAR(ptr2);
		ptr2[size2 - 1] = 'x'; /* in bounds */
		TAGS_EXPECT_FAIL(ptr2[ROUND_UP(size2)] = 'x', .type = "slab-out-of-bounds", .rw = "Write", .size = 1, .addr = ptr2 + ROUND_UP(size2), .obj = ptr2, .obj_size = size2, .cache = "realloc", .alloc_line = aline);
		free(ptr2);
	}
	TAGS_CASE { /* moved: the old pointer is freed */
		char *ptr1 = malloc(64); int aline = __LINE__;
		char *block = malloc(64); /* keeps ptr1 from growing in place */
		char *ptr2 = realloc(ptr1, 100000); int fline = __LINE__;
		OPTIMIZER_HIDE_VAR(ptr1);
		if (tags_untag(ptr2) == tags_untag(ptr1))
			tags_test_fail("realloc did not move the object");
		else
			TAGS_EXPECT_FAIL(tags_int_result = ((volatile char *)ptr1)[0], .type = "slab-use-after-free", .rw = "Read", .size = 1, .addr = ptr1, .obj = ptr1, .obj_size = 64, .freed = 1, .alloc_line = aline, .free_line = fline);
		free(ptr2);
		free(block);
	}
}

int main(int argc, char **argv)
{
	tags_select(argc, argv);
	krealloc_oob();
	return 0;
}
