// MODE: generic
// VARIANTS: gcc clang gcc-outline clang-outline
// CFLAGS: -fno-sanitize-recover=kernel-address
// STATUS: signal SIGABRT
// RUN: kasan_multi_shot
// Built without recovery, the report is printed in full, then the program
// dies even with kasan.fault=report and multi-shot: the compiler has left no
// code to return to. Every size goes through the non-returning entry points
// (__asan_report_store4 inline, __asan_store4 outline).
// EXPECT: BUG: KASAN: slab-out-of-bounds in no_recover+0x
// EXPECT-RE: ^Write of size 4 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: Memory state around the buggy address:
// EXPECT: ukasan: built without recovery (UKASAN_RECOVER=0): cannot continue after a report, aborting
// NOT: after the access
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void no_recover(void)
{
	int *a = malloc(16); int aline = __LINE__;

	OPTIMIZER_HIDE_VAR(a);
	KASAN_EXPECT_FAIL(((volatile int *)a)[4] = 1, .type = "slab-out-of-bounds", .rw = "Write", .size = 4, .addr = a + 4, .obj = a, .obj_size = 16, .alloc_line = aline);
	fprintf(stderr, "after the access\n");
	free(a);
}

int main(void)
{
	no_recover();
	return 0;
}
