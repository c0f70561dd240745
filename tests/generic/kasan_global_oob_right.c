// MODE: generic
// VARIANTS: gcc clang gcc-outline clang-outline
// The kernel's kasan_global_oob_right: a read 3 bytes past a 10-byte global
// array, in the redzone the compiler puts after it.
// EXPECT: BUG: KASAN: global-out-of-bounds in kasan_global_oob_right+0x
// EXPECT-RE: ^Read of size 1 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: The buggy address belongs to the variable:
// The variable's size with its redzone: GCC pads a 10-byte global to 0x40,
// clang to 0x20; GCC also gives its file:line.
// NOT: Allocated by task
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

#ifdef __clang__
#define GLOBAL_SIZE_WITH_REDZONE 0x20
#else
#define GLOBAL_SIZE_WITH_REDZONE 0x40
#endif

static char global_array[10]; enum { global_array_line = __LINE__ };

KASAN_TEST void kasan_global_oob_right(void)
{
	/* A volatile pointer, so the compiler cannot see the bounds. */
	char *volatile array = global_array;
	char *p = &array[sizeof(global_array) + 3];

	KASAN_EXPECT_FAIL(kasan_int_result = *(volatile char *)p, .type = "global-out-of-bounds", .rw = "Read", .size = 1, .addr = p, .var = "global_array", .var_addr = global_array, .var_size = GLOBAL_SIZE_WITH_REDZONE, .var_line = global_array_line);
}

int main(void)
{
	kasan_global_oob_right();
	return 0;
}
