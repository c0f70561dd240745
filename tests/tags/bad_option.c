// MODE: sw_tags
// VARIANTS: gcc clang
// RUN: kasan.fault=banana
// A bad value prints one "ukasan: invalid value" line; the program runs on
// with the default (kasan.fault=report): the bug is reported and the
// program ends normally.
// EXPECT: ukasan: invalid value 'banana' for kasan.fault
// EXPECT: BUG: KASAN: slab-out-of-bounds in bad_option+0x
// EXPECT: done
// COUNT: 1 ukasan: invalid value
// COUNT: 1 BUG: KASAN:
#include "tags_test.h"

TAGS_TEST void bad_option(void)
{
	char *a = malloc(32); int aline = __LINE__;

	OPTIMIZER_HIDE_VAR(a);
	TAGS_EXPECT_FAIL(a[32] = 1, .type = "slab-out-of-bounds", .rw = "Write", .size = 1, .addr = a + 32, .obj = a, .obj_size = 32, .alloc_line = aline);
	free(a);
	fprintf(stderr, "done\n");
}

int main(int argc, char **argv)
{
	tags_select(argc, argv);
	bad_option();
	return 0;
}
