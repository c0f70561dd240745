// MODE: generic
// RUN: kasan.fault=panic_on_write kasan_multi_shot
// STATUS: signal SIGABRT
// With kasan.fault=panic_on_write a bad read is reported and the program
// goes on; the first bad write is reported, then the program dies of
// SIGABRT.
// EXPECT: BUG: KASAN: slab-out-of-bounds in kasan_fault_panic_on_write+0x
// EXPECT-RE: ^Read of size 1 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: after the read
// EXPECT: BUG: KASAN: slab-out-of-bounds in kasan_fault_panic_on_write+0x
// EXPECT-RE: ^Write of size 1 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: Memory state around the buggy address:
// EXPECT: ==================================================================
// NOT: after the write
// COUNT: 2 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kasan_fault_panic_on_write(void)
{
	char *a = malloc(16); int aline = __LINE__;

	OPTIMIZER_HIDE_VAR(a);
	KASAN_EXPECT_FAIL(kasan_int_result = ((volatile char *)a)[16], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = a + 16, .obj = a, .obj_size = 16, .alloc_line = aline);
	fprintf(stderr, "after the read\n");
	KASAN_EXPECT_FAIL(((volatile char *)a)[17] = 1, .type = "slab-out-of-bounds", .rw = "Write", .size = 1, .addr = a + 17, .obj = a, .obj_size = 16, .alloc_line = aline);
	fprintf(stderr, "after the write\n");
	free(a);
}

int main(void)
{
	kasan_fault_panic_on_write();
	return 0;
}
