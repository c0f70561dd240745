// MODE: generic
// Without kasan_multi_shot (the default), only the first report is printed,
// as in the kernel: the second bad access goes unreported, and the program
// runs on (kasan.fault=report).
// EXPECT: BUG: KASAN: slab-out-of-bounds in kasan_multi_shot_off+0x
// EXPECT: done
// NOT: slab-use-after-free
// COUNT: 1 BUG: KASAN:
// COUNT: 2 ==================================================================
#include "kasan_test.h"

KASAN_TEST void kasan_multi_shot_off(void)
{
	char *a = malloc(16); int aline_a = __LINE__;
	char *b = malloc(32);

	OPTIMIZER_HIDE_VAR(a);
	free(b);
	KASAN_EXPECT_FAIL(a[16] = 1, .type = "slab-out-of-bounds", .rw = "Write", .size = 1, .addr = a + 16, .obj = a, .obj_size = 16, .alloc_line = aline_a);
	kasan_int_result = ((volatile char *)b)[31];
	free(a);
	fprintf(stderr, "done\n");
}

int main(void)
{
	kasan_multi_shot_off();
	return 0;
}
