// MODE: generic
// VARIANTS: gcc-O0 gcc gcc-O2 gcc-O3 clang-O0 clang clang-O2 clang-O3
// RUN: kasan_multi_shot
// Indexes just past both ends of a local array, which the compiler can
// compute (the store is undefined behaviour it may delete): caught at every
// optimisation level by both compilers. GCC keeps the stores, as local
// arrays stay addressable with use-after-scope on, and KASAN reports them;
// clang deletes them at -O2 and -O3, and its front-end bounds check (the
// kernel's UBSAN_BOUNDS) reports the index first, at every level. Each
// location is reported once. (At clang -O0 the store to buffer[-5] lands on
// the frame's pointer to its description, which the report of buffer[10]
// then reads: the report must not crash on it.)
// EXPECT-GCC: BUG: KASAN: stack-out-of-bounds in main+0x
// EXPECT-GCC: Write of size 4 at addr
// EXPECT-GCC: 'buffer'
// EXPECT-GCC: BUG: KASAN: stack-out-of-bounds in main+0x
// EXPECT-GCC: Write of size 4 at addr
// NOT-GCC: UBSAN:
// EXPECT-RE-CLANG: ^UBSAN: array-index-out-of-bounds in \S*tests/generic/stack_oob_every_level.c:41:\d+$
// EXPECT-CLANG: index -5 is out of range for type 'int[10]'
// EXPECT-CLANG: Call Trace:
// EXPECT-CLANG:  main+0x
// EXPECT-RE-CLANG: ^UBSAN: array-index-out-of-bounds in \S*tests/generic/stack_oob_every_level.c:42:\d+$
// EXPECT-CLANG: index 10 is out of range for type 'int[10]'
// COUNT-CLANG: 2 UBSAN: array-index-out-of-bounds
// STDOUT: 0 1 2 3 4 5 6 7 8 9
#include <stdio.h>

int main(void)
{
	int buffer[10];
	for (int round = 0; round < 3; round++) {
		for (int i = 0; i < 10; i++)
			buffer[i] = i;
		if (round == 2) {
			for (int i = 0; i < 10; i++)
				printf("%d ", buffer[i]);
			printf("\n");
			break;
		}
		buffer[-5] = 1;
		buffer[10] = 1;
	}
	return 0;
}
