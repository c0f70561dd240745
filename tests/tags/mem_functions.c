// MODE: sw_tags
// VARIANTS: gcc clang clang-calls
// RUN: kasan_multi_shot
// HWASAN: caught caught caught caught gcc=caught,clang=ukasan-only -- each range runs past its object's last granule; clang's HWASan does not check memcmp (GCC's instruments the builtin)
// The kernel's kmalloc_oob_in_memset, kmalloc_memmove_invalid_size and
// memcpy cases for the tag modes, and kasan_memcmp: each call is reported
// once, from the start of its range, as a bad access of the range's
// length; the marked tag is the first granule past the object.
// EXPECT: BUG: KASAN: slab-out-of-bounds in kasan_mem_oob+0x
// EXPECT: Write of size 128 at addr
// EXPECT: BUG: KASAN: slab-out-of-bounds in kasan_mem_oob+0x
// EXPECT: Read of size 65 at addr
// EXPECT: BUG: KASAN: slab-out-of-bounds in kasan_mem_oob+0x
// EXPECT: Write of size 65 at addr
// EXPECT: BUG: KASAN: slab-out-of-bounds in kasan_mem_oob+0x
// EXPECT: Read of size 64 at addr
// EXPECT: BUG: KASAN: slab-out-of-bounds in kasan_mem_oob+0x
// EXPECT: Read of size 33 at addr
// COUNT: 5 BUG: KASAN:
#include "tags_test.h"

TAGS_TEST void kasan_mem_oob(void)
{
	char *set = malloc(112); int aset = __LINE__;
	char *src = malloc(64); int asrc = __LINE__;
	char *dst = malloc(64); int adst = __LINE__;
	char *mv = malloc(64); int amv = __LINE__;
	char *cmp = calloc(1, 32); int acmp = __LINE__;
	char big[128] = {0};
	size_t n = 65, n128 = 128, n64 = 64, n33 = 33;

	memset(src, 'a', 64);
	OPTIMIZER_HIDE_VAR(set);
	OPTIMIZER_HIDE_VAR(src);
	OPTIMIZER_HIDE_VAR(dst);
	OPTIMIZER_HIDE_VAR(mv);
	OPTIMIZER_HIDE_VAR(cmp);
	OPTIMIZER_HIDE_VAR(n);
	OPTIMIZER_HIDE_VAR(n128);
	OPTIMIZER_HIDE_VAR(n64);
	OPTIMIZER_HIDE_VAR(n33);
	TAGS_CASE {
		TAGS_EXPECT_FAIL(memset(set, 0, n128), .type = "slab-out-of-bounds", .rw = "Write", .size = 128, .addr = set, .obj = set, .obj_size = 112, .alloc_line = aset);
	}
	TAGS_CASE {
		TAGS_EXPECT_FAIL(memcpy(big, src, n), .type = "slab-out-of-bounds", .rw = "Read", .size = 65, .addr = src, .obj = src, .obj_size = 64, .alloc_line = asrc);
	}
	TAGS_CASE {
		TAGS_EXPECT_FAIL(memcpy(dst, big, n), .type = "slab-out-of-bounds", .rw = "Write", .size = 65, .addr = dst, .obj = dst, .obj_size = 64, .alloc_line = adst);
	}
	TAGS_CASE {
		/* kmalloc_memmove_invalid_size: 4 bytes too many, from ptr + 4 */
		TAGS_EXPECT_FAIL(memmove(mv, mv + 4, n64), .type = "slab-out-of-bounds", .rw = "Read", .size = 64, .addr = mv + 4, .obj = mv, .obj_size = 64, .alloc_line = amv);
	}
	TAGS_CASE {
		TAGS_EXPECT_FAIL(tags_int_result = memcmp(cmp, big, n33), .type = "slab-out-of-bounds", .rw = "Read", .size = 33, .addr = cmp, .obj = cmp, .obj_size = 32, .cache = "calloc", .alloc_line = acmp);
	}
	free(set);
	free(src);
	free(dst);
	free(mv);
	free(cmp);
}

int main(int argc, char **argv)
{
	tags_select(argc, argv);
	kasan_mem_oob();
	return 0;
}
