// MODE: sw_tags
// VARIANTS: gcc clang
// RUN: kasan.fault=panic
// STATUS: signal SIGABRT
// With kasan.fault=panic the first report is printed in full, then the
// program dies of SIGABRT: nothing after the bad access runs.
// EXPECT: BUG: KASAN: slab-out-of-bounds in kasan_fault_panic+0x
// EXPECT: Memory state around the buggy address:
// EXPECT: ==================================================================
// NOT: after the access
// COUNT: 1 BUG: KASAN:
#include "tags_test.h"

TAGS_TEST void kasan_fault_panic(void)
{
	char *a = malloc(16); int aline = __LINE__;

	OPTIMIZER_HIDE_VAR(a);
	TAGS_EXPECT_FAIL(tags_int_result = ((volatile char *)a)[16], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = a + 16, .obj = a, .obj_size = 16, .alloc_line = aline);
	fprintf(stderr, "after the access\n");
	a[17] = 1;
	free(a);
}

int main(int argc, char **argv)
{
	tags_select(argc, argv);
	kasan_fault_panic();
	return 0;
}
