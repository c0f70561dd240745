// MODE: sw_tags
// VARIANTS: gcc clang
// HWASAN: caught -- the second free's pointer tag no longer matches
// The kernel's kmalloc_double_kzfree: the second free finds the object's
// memory tagged invalid. The report names both stacks; the object is not
// freed twice (a third allocation of the size works).
// EXPECT: BUG: KASAN: double-free in kmalloc_double_free+0x
// EXPECT: memory tag: [fe]
// EXPECT: freed 100-byte region
// NOT: invalid-free
// COUNT: 1 BUG: KASAN:
#include "tags_test.h"

TAGS_TEST void kmalloc_double_free(void)
{
	char *ptr = malloc(100); int aline = __LINE__;

	OPTIMIZER_HIDE_VAR(ptr);
	free(ptr); int fline = __LINE__;
	TAGS_EXPECT_FAIL(free(ptr), .type = "double-free", .rw = "Free", .addr = ptr, .obj = ptr, .obj_size = 100, .freed = 1, .alloc_line = aline, .free_line = fline);
	char *a = malloc(100), *b = malloc(100);
	a[99] = b[99] = 1;
	free(a);
	free(b);
}

int main(int argc, char **argv)
{
	tags_select(argc, argv);
	kmalloc_double_free();
	return 0;
}
