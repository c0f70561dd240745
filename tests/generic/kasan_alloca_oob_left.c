// MODE: generic
// VARIANTS: gcc clang gcc-outline clang-outline
// The kernel's kasan_alloca_oob_left: a read just before a 10-byte VLA. Both
// compilers instrument dynamic allocas here (ukasan-cc turns it on):
// 32-byte redzones, CA on the left and CB on the right.
// EXPECT: BUG: KASAN: alloca-out-of-bounds in kasan_alloca_oob_left+0x
// EXPECT-RE: ^Read of size 1 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT-RE: ^The buggy address belongs to stack of task \S+/\d+$
// NOT: Allocated by task
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kasan_alloca_oob_left(void)
{
	volatile int i = 10;
	char alloca_array[i];
	char *volatile array = alloca_array;
	char *p = array - 1;

	KASAN_EXPECT_FAIL(kasan_int_result = *(volatile char *)p, .type = "alloca-out-of-bounds", .rw = "Read", .size = 1, .addr = p, .alloca = 1);
}

int main(void)
{
	kasan_alloca_oob_left();
	return 0;
}
