// MODE: sw_tags
// VARIANTS: gcc clang
// RUN: kasan_multi_shot
// HWASAN: caught ukasan-only ukasan-only -- both HWASan builds catch the strcpy, neither the strlen or strchr past the object
// String functions that run past the end of a 16-byte object: strcpy of a
// longer string into it, and strlen and strchr of an unterminated string
// (a terminator put past it without a check). Each call reports the whole
// range it touches, from its start; the first bad granule is the one past
// the object.
// EXPECT: BUG: KASAN: slab-out-of-bounds in kasan_str_oob+0x
// EXPECT: Write of size 19 at addr
// EXPECT: BUG: KASAN: slab-out-of-bounds in kasan_str_oob+0x
// EXPECT: Read of size 18 at addr
// EXPECT: BUG: KASAN: slab-out-of-bounds in kasan_str_oob+0x
// EXPECT: Read of size 17 at addr
// COUNT: 3 BUG: KASAN:
#include "tags_test.h"

/* A byte past the object, unchecked: the test's own setup. */
TAGS_NOCHECK static __attribute__((noinline)) void poke(char *p, char c)
{
	*(volatile char *)p = c;
}

TAGS_TEST void kasan_str_oob(void)
{
	const char *src = "0123456789abcdefXY"; /* 18 characters and the terminator */
	char *dst = malloc(16); int dline = __LINE__;
	char *str = malloc(16); int sline = __LINE__;

	OPTIMIZER_HIDE_VAR(dst);
	OPTIMIZER_HIDE_VAR(str);
	memcpy(str, "abcdefghijklmnop", 16); /* no terminator */
	poke(str + 16, 'q');
	poke(str + 17, 0);
	TAGS_CASE {
		TAGS_EXPECT_FAIL(tags_ptr_result = strcpy(dst, src), .type = "slab-out-of-bounds", .rw = "Write", .size = 19, .addr = dst, .obj = dst, .obj_size = 16, .alloc_line = dline);
	}
	TAGS_CASE {
		TAGS_EXPECT_FAIL(tags_int_result = strlen(str), .type = "slab-out-of-bounds", .rw = "Read", .size = 18, .addr = str, .obj = str, .obj_size = 16, .alloc_line = sline);
	}
	TAGS_CASE {
		TAGS_EXPECT_FAIL(tags_ptr_result = strchr(str, 'q'), .type = "slab-out-of-bounds", .rw = "Read", .size = 17, .addr = str, .obj = str, .obj_size = 16, .alloc_line = sline);
	}
	poke(str + 16, 0);
	poke(str + 17, 0);
	free(dst);
	free(str);
}

int main(int argc, char **argv)
{
	tags_select(argc, argv);
	kasan_str_oob();
	return 0;
}
