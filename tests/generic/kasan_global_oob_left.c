// MODE: generic
// VARIANTS: gcc clang gcc-outline clang-outline
// RUN: kasan_multi_shot
// The kernel's kasan_global_oob_left: a read 3 bytes before a global array.
// Neither compiler puts a redzone on the left of a global, only on its
// right (0x40 bytes in all for GCC, 0x20 for clang here). So a read just
// before a global is caught only when another instrumented global lies
// right before it, and is then reported in that global's right redzone,
// naming it; before the first global of .bss (after crtstuff's completed.0)
// nothing is caught. (The kernel skips this test for GCC: bugzilla 215051.)
// The two compilers lay these two globals out in opposite orders:
//   GCC:   global_before, global_array: global_array - 3 is caught;
//   clang: global_array, global_before: global_before - 3 is caught.
// EXPECT: BUG: KASAN: global-out-of-bounds in kasan_global_oob_left+0x
// EXPECT-RE: ^Read of size 1 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: The buggy address belongs to the variable:
// EXPECT-GCC:  global_before+0x3d/0x40
// EXPECT-CLANG:  global_array+0x1d/0x20
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

static char global_array[10]; enum { global_array_line = __LINE__ };
static char global_before[10]; enum { global_before_line = __LINE__ };

#ifdef __clang__
#define GLOBAL_SIZE_WITH_REDZONE 0x20
#else
#define GLOBAL_SIZE_WITH_REDZONE 0x40
#endif

KASAN_TEST void kasan_global_oob_left(void)
{
	char *volatile array = global_array;
	char *volatile before = global_before;
	char *p;

#ifdef __clang__
	if (array + GLOBAL_SIZE_WITH_REDZONE != before)
		kasan_test_fail("clang no longer puts global_array right before global_before");
	/* The kernel's access: nothing instrumented before global_array. */
	p = array - 3;
	kasan_int_result = *(volatile char *)p;
	p = before - 3;
	KASAN_EXPECT_FAIL(kasan_int_result = *(volatile char *)p, .type = "global-out-of-bounds", .rw = "Read", .size = 1, .addr = p, .var = "global_array", .var_addr = global_array, .var_size = GLOBAL_SIZE_WITH_REDZONE, .var_line = global_array_line);
#else
	if (before + GLOBAL_SIZE_WITH_REDZONE != array)
		kasan_test_fail("GCC no longer puts global_before right before global_array");
	p = array - 3;
	KASAN_EXPECT_FAIL(kasan_int_result = *(volatile char *)p, .type = "global-out-of-bounds", .rw = "Read", .size = 1, .addr = p, .var = "global_before", .var_addr = global_before, .var_size = GLOBAL_SIZE_WITH_REDZONE, .var_line = global_before_line);
	/* Nothing instrumented before global_before. */
	p = before - 3;
	kasan_int_result = *(volatile char *)p;
#endif
}

int main(void)
{
	kasan_global_oob_left();
	return 0;
}
