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
// The order of the two globals is the compiler's and the target's:
//   GCC x86-64:            global_before, global_array: global_array - 3 is caught;
//   clang, GCC aarch64:    global_array, global_before: global_before - 3 is caught.
// The test finds the order from their addresses, and asserts that they are
// adjacent, that the read before the second is reported in the first's
// redzone, naming the first, and that the read before the first is not.
// EXPECT: BUG: KASAN: global-out-of-bounds in kasan_global_oob_left+0x
// EXPECT-RE: ^Read of size 1 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: The buggy address belongs to the variable:
// EXPECT-RE-GCC: ^ global_(before|array)\+0x3d/0x40 \S+:\d+$
// EXPECT-RE-CLANG: ^ global_(before|array)\+0x1d/0x20$
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
	int array_first = array < before;
	char *first = array_first ? array : before;
	char *second = array_first ? before : array;
	const char *first_name = array_first ? "global_array" : "global_before";
	int first_line = array_first ? global_array_line : global_before_line;
	char *p;

	if (first + GLOBAL_SIZE_WITH_REDZONE != second)
		kasan_test_fail("global_array and global_before are not adjacent");
	/* Nothing instrumented before the first. */
	p = first - 3;
	kasan_int_result = *(volatile char *)p;
	p = second - 3;
	KASAN_EXPECT_FAIL(kasan_int_result = *(volatile char *)p, .type = "global-out-of-bounds", .rw = "Read", .size = 1, .addr = p, .var = first_name, .var_addr = first, .var_size = GLOBAL_SIZE_WITH_REDZONE, .var_line = first_line);
}

int main(void)
{
	kasan_global_oob_left();
	return 0;
}
