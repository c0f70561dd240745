// MODE: generic
// RUN: kasan_multi_shot
// With kasan_multi_shot, every bad access is reported: here two, a write
// past one object and a read of another after free.
// EXPECT: BUG: KASAN: slab-out-of-bounds in kasan_multi_shot+0x
// EXPECT: BUG: KASAN: slab-use-after-free in kasan_multi_shot+0x
// EXPECT: done
// COUNT: 2 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kasan_multi_shot(void)
{
	char *a = malloc(16); int aline_a = __LINE__;
	char *b = malloc(32); int aline_b = __LINE__;

	OPTIMIZER_HIDE_VAR(a);
	free(b); int fline = __LINE__;
	KASAN_EXPECT_FAIL(a[16] = 1, .type = "slab-out-of-bounds", .rw = "Write", .size = 1, .addr = a + 16, .obj = a, .obj_size = 16, .alloc_line = aline_a);
	KASAN_EXPECT_FAIL(kasan_int_result = ((volatile char *)b)[31], .type = "slab-use-after-free", .rw = "Read", .size = 1, .addr = b + 31, .obj = b, .obj_size = 32, .freed = 1, .alloc_line = aline_b, .free_line = fline);
	free(a);
	fprintf(stderr, "done\n");
}

int main(void)
{
	kasan_multi_shot();
	return 0;
}
