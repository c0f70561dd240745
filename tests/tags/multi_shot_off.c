// MODE: sw_tags
// VARIANTS: gcc clang
// Without kasan_multi_shot only the first report is printed, as in the
// kernel; the program runs on past both bad accesses.
// EXPECT: BUG: KASAN: slab-out-of-bounds in kasan_multi_shot_off+0x
// EXPECT: done
// NOT: slab-use-after-free
// COUNT: 1 BUG: KASAN:
#include "tags_test.h"

TAGS_TEST void kasan_multi_shot_off(void)
{
	char *a = malloc(16); int aline = __LINE__;
	char *b = malloc(32);

	OPTIMIZER_HIDE_VAR(a);
	free(b);
	TAGS_EXPECT_FAIL(a[16] = 1, .type = "slab-out-of-bounds", .rw = "Write", .size = 1, .addr = a + 16, .obj = a, .obj_size = 16, .alloc_line = aline);
	TAGS_CASE {
		tags_int_result = ((volatile char *)b)[31]; /* not reported */
	}
	free(a);
	fprintf(stderr, "done\n");
}

int main(int argc, char **argv)
{
	tags_select(argc, argv);
	kasan_multi_shot_off();
	return 0;
}
