// MODE: generic
// VARIANTS: gcc clang gcc-outline clang-outline
// The kernel's kasan_stack_oob: a read just past a 10-byte stack array, in
// the redzone the compiler puts after it. The report describes the frame
// and its objects.
// EXPECT: BUG: KASAN: stack-out-of-bounds in kasan_stack_oob+0x
// EXPECT-RE: ^Read of size 1 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT-RE: ^The buggy address belongs to stack of task \S+/\d+$
// EXPECT-RE: ^ and is located at offset \d+ in frame:\n kasan_stack_oob\+0x0/0x[0-9a-f]+$
// EXPECT-RE: ^This frame has \d+ objects?:$
// EXPECT-RE: ^ \[\d+, \d+\) 'stack_array'$
// NOT: Allocated by task
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kasan_stack_oob(void)
{
	char stack_array[10];
	/* A volatile pointer, so the compiler cannot see the bounds. */
	char *volatile array = stack_array;
	char *p = &array[sizeof(stack_array)];

	KASAN_EXPECT_FAIL(kasan_int_result = *(volatile char *)p, .type = "stack-out-of-bounds", .rw = "Read", .size = 1, .addr = p, .stack_object = "stack_array");
}

int main(void)
{
	kasan_stack_oob();
	return 0;
}
