// MODE: generic
// VARIANTS: gcc clang gcc-O2 clang-O2
// RUN: ukasan.dedup_token_length=4 ukasan.asan_lines=on
// A bad access made by inlined code is reported as AddressSanitizer reports
// it (llvm-symbolizer --inlining): the title names the innermost inlined
// function, each inlined function is a frame of its own, marked [inline],
// with its line, and each one out has the line of the call in it; the
// DEDUP token counts them as frames.
// EXPECT: BUG: KASAN: slab-out-of-bounds in store_byte+0x
// EXPECT-RE: ^ \[<([0-9a-f]+)>\] store_byte\+0x[0-9a-f]+/0x[0-9a-f]+ tests/generic/inline_frames.c:18 \[inline\]\n \[<\1>\] fill_two\+0x[0-9a-f]+/0x[0-9a-f]+ tests/generic/inline_frames.c:24 \[inline\]\n \[<\1>\] writer\+0x[0-9a-f]+/0x[0-9a-f]+ tests/generic/inline_frames.c:30\n \[<[0-9a-f]+>\] main\+0x[0-9a-f]+/0x[0-9a-f]+ tests/generic/inline_frames.c:38$
// EXPECT: DEDUP_TOKEN: slab-out-of-bounds--store_byte--fill_two--writer--main
// NOT: #0 0x
#include <stdlib.h>

/* the access, inlined twice over whatever the optimization level */
static inline __attribute__((always_inline)) void store_byte(volatile char *p, int i)
{
	p[i] = 7;
}

static inline __attribute__((always_inline)) void fill_two(volatile char *p, int i)
{
	p[0] = 1;
	store_byte(p, i);
}

__attribute__((noinline)) void writer(char *p, int i)
{
	asm volatile("" : : "r"(p) : "memory");
	fill_two(p, i);
	asm volatile("" : : "r"(p) : "memory");
}

int main(int argc, char **argv)
{
	(void)argv;
	char *p = malloc(16);
	writer(p, 15 + argc);
	free(p);
	return 0;
}
