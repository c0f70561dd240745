// MODE: generic
// RUN: kasan.fault=panic
// STATUS: signal SIGABRT
// With kasan.fault=panic the first report is printed in full, then the
// program dies of SIGABRT: nothing after the bad access runs.
// EXPECT: BUG: KASAN: slab-out-of-bounds in kasan_fault_panic+0x
// EXPECT-RE: ^Read of size 1 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: Memory state around the buggy address:
// EXPECT: ==================================================================
// NOT: after the access
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kasan_fault_panic(void)
{
	char *a = malloc(16); int aline = __LINE__;

	OPTIMIZER_HIDE_VAR(a);
	KASAN_EXPECT_FAIL(kasan_int_result = ((volatile char *)a)[16], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = a + 16, .obj = a, .obj_size = 16, .alloc_line = aline);
	fprintf(stderr, "after the access\n");
	a[17] = 1;
	free(a);
}

int main(void)
{
	kasan_fault_panic();
	return 0;
}
