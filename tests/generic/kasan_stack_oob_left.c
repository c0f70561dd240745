// MODE: generic
// VARIANTS: gcc clang gcc-outline clang-outline
// kasan_stack_oob to the left: a write just before a 10-byte stack array,
// in the frame's left redzone.
// EXPECT: BUG: KASAN: stack-out-of-bounds in kasan_stack_oob_left+0x
// EXPECT-RE: ^Write of size 1 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT-RE: ^The buggy address belongs to stack of task \S+/\d+$
// EXPECT-RE: ^ and is located at offset \d+ in frame:\n kasan_stack_oob_left\+0x0/0x[0-9a-f]+$
// EXPECT-RE: ^ \[\d+, \d+\) 'stack_array'$
// NOT: Allocated by task
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kasan_stack_oob_left(void)
{
	char stack_array[10];
	char *volatile array = stack_array;
	char *p = array - 1;

	KASAN_EXPECT_FAIL(*(volatile char *)p = 1, .type = "stack-out-of-bounds", .rw = "Write", .size = 1, .addr = p, .stack_object = "stack_array");
	kasan_int_result = stack_array[0];
}

int main(void)
{
	kasan_stack_oob_left();
	return 0;
}
