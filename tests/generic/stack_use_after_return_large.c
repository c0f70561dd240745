// MODE: generic
// VARIANTS: gcc clang
// RUN: kasan_multi_shot
// Fake frames of the size classes above a page (8, 16, 32 and 64 KiB: the
// compilers' largest), with fake stacks on by default: a local array of
// each, used after its function returned, is reported as
// stack-use-after-return with its frame and object named. A report finds
// the frame by rounding the address down to the frame's size. The frames
// were aligned only to a page, and a class above it was named only when
// the fake stack's mapping happened to be aligned to it: without the fix,
// the 32 KiB one here failed on arm64 under qemu-user, the 64 KiB one on
// x86-64 (and gcc's 8 KiB frame of family_io_path.c on arm64).
// EXPECT: BUG: KASAN: stack-use-after-return in stack_use_after_return_large+0x
// EXPECT-RE: ^ and is located at offset \d+ in frame:\n leak_6k(\.\w+\.\d+)?\+0x0/0x[0-9a-f]+\n\nThis frame has 1 object:\n \[\d+, \d+\) 'local'$
// EXPECT: BUG: KASAN: stack-use-after-return in stack_use_after_return_large+0x
// EXPECT-RE: ^ and is located at offset \d+ in frame:\n leak_12k(\.\w+\.\d+)?\+0x0/0x[0-9a-f]+\n\nThis frame has 1 object:\n \[\d+, \d+\) 'local'$
// EXPECT: BUG: KASAN: stack-use-after-return in stack_use_after_return_large+0x
// EXPECT-RE: ^ and is located at offset \d+ in frame:\n leak_24k(\.\w+\.\d+)?\+0x0/0x[0-9a-f]+\n\nThis frame has 1 object:\n \[\d+, \d+\) 'local'$
// EXPECT: BUG: KASAN: stack-use-after-return in stack_use_after_return_large+0x
// EXPECT-RE: ^ and is located at offset \d+ in frame:\n leak_48k(\.\w+\.\d+)?\+0x0/0x[0-9a-f]+\n\nThis frame has 1 object:\n \[\d+, \d+\) 'local'$
// COUNT: 4 BUG: KASAN:
#include "kasan_test.h"

static char *volatile leaked;

__attribute__((noinline)) static void keep(char *p)
{
	leaked = p;
}

/* A frame of one class. */
#define LEAK(name, size)                                                                           \
	__attribute__((noinline)) static int name(int n)                                           \
	{                                                                                          \
		char local[size];                                                                  \
		for (int i = 0; i < (size); i++)                                                   \
			local[i] = (char)(n + i);                                                  \
		keep(local);                                                                       \
		return local[n % (size)];                                                          \
	}
LEAK(leak_6k, 6000)
LEAK(leak_12k, 12000)
LEAK(leak_24k, 24000)
LEAK(leak_48k, 48000)

KASAN_TEST void stack_use_after_return_large(int n)
{
	char *p;
	leak_6k(n);
	p = leaked + 5000;
	KASAN_EXPECT_FAIL(kasan_int_result = *p, .type = "stack-use-after-return", .rw = "Read", .size = 1, .addr = p);
	leak_12k(n);
	p = leaked + 100;
	KASAN_EXPECT_FAIL(kasan_int_result = *p, .type = "stack-use-after-return", .rw = "Read", .size = 1, .addr = p);
	leak_24k(n);
	p = leaked + 20000;
	KASAN_EXPECT_FAIL(*p = 1, .type = "stack-use-after-return", .rw = "Write", .size = 1, .addr = p);
	leak_48k(n);
	p = leaked + 40000;
	KASAN_EXPECT_FAIL(*p = 1, .type = "stack-use-after-return", .rw = "Write", .size = 1, .addr = p);
}

int main(int argc, char **argv)
{
	stack_use_after_return_large(argc);
	return 0;
}
