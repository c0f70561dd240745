// MODE: sw_tags
// VARIANTS: gcc clang clang-outline clang-calls
// HWASAN: caught -- stack objects are tagged (clang: from the frame address, gcc: 1, 2, ... from sp's tag 0)
// The kernel's kasan_stack_oob: a local array written one granule past its
// (granule-rounded) end, through a computed index. The compilers tag each
// addressable local; what lies after the array has another tag (the next
// local's, or 0 for untagged frame data). No heap object and no stack ring
// entry: an invalid-access. (clang's frame tag is derived from the frame
// address: 1 run in 256 it is 0 or 0xff and nothing is caught.)
// EXPECT: BUG: KASAN: invalid-access in kasan_stack_oob+0x
// EXPECT: Write of size 1 at addr
// NOT: Allocated by task
// COUNT: 1 BUG: KASAN:
#include "tags_test.h"

TAGS_TEST void kasan_stack_oob(void)
{
	char stack_array[20];
	volatile int i = 32;
	int k = i;

	tags_ptr_result = stack_array;
	TAGS_EXPECT_FAIL(stack_array[k] = 1, .type = "invalid-access", .rw = "Write", .size = 1, .addr = stack_array + k);
	tags_int_result = stack_array[0];
}

int main(int argc, char **argv)
{
	tags_select(argc, argv);
	kasan_stack_oob();
	return 0;
}
