// MODE: generic
// CFLAGS: -fsanitize=pointer-compare,pointer-subtract
// RUN: kasan.detect_invalid_pointer_pairs=1 kasan_multi_shot
// ASan's detect_invalid_pointer_pairs: pointers into two heap objects, two
// globals, a heap object and a global, and two stack frames, compared or
// subtracted, are each reported as an invalid-pointer-pair in the function
// that did it, naming both pointers and describing what each points into.
// Pairs inside one object (one past its end too), a NULL at level 1 and
// memory ukasan does not know are not: pointer_pairs_clean.c, and
// pointer_pairs_off.c without the option.
// EXPECT: BUG: KASAN: invalid-pointer-pair in pair_heap_cmp+0x
// EXPECT: which belongs to the cache malloc of size 16
// EXPECT: The buggy address is located 0 bytes inside of
// EXPECT: which belongs to the cache malloc of size 16
// EXPECT: BUG: KASAN: invalid-pointer-pair in pair_global_cmp+0x
// EXPECT: The buggy address belongs to the variable:
// EXPECT:  global_a+0x0/0x
// EXPECT:  global_b+0x0/0x
// EXPECT: BUG: KASAN: invalid-pointer-pair in pair_stack_frames+0x
// COUNT: 5 BUG: KASAN: invalid-pointer-pair in pair_
// COUNT: 5 BUG: KASAN:
#include "_pointer_pairs.h"

int main(void)
{
	expecting = 1;
	pointer_pairs_bad();
	expecting = 0;
	pointer_pairs_good();
	return 0;
}
