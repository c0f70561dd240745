// MODE: generic
// VARIANTS: gcc clang gcc-outline clang-outline gcc-fortify clang-fortify
// RUN: kasan_multi_shot kasan.stack_use_after_return=on
// A pointer to a function's local array, used after the function returned:
// a read, then a write after other calls have come and gone, both reported
// as stack-use-after-return (ASan's name; the kernel has no such check) with
// the returned function's frame and object. Then a call that reuses nothing
// of it runs clean. tests/generic/stack_use_after_return_off.c runs the
// same program with the option off.
// EXPECT: BUG: KASAN: stack-use-after-return in stack_use_after_return+0x
// EXPECT-RE: ^ and is located at offset \d+ in frame:\n leak_local(\.\w+\.\d+)?\+0x0/0x[0-9a-f]+\n\nThis frame has 1 object:\n \[\d+, \d+\) 'local'$
// EXPECT: BUG: KASAN: stack-use-after-return in stack_use_after_return+0x
// EXPECT-RE: ^ leak_local(\.\w+\.\d+)?\+0x0/0x[0-9a-f]+\n\nThis frame has 1 object:\n \[\d+, \d+\) 'local'$
// COUNT: 2 BUG: KASAN:
// STDOUT: sum 45
#include "kasan_test.h"

#include <stdio.h>

static int *volatile leaked;

__attribute__((noinline)) static void keep(int *p)
{
	leaked = p;
}

/* The returned frame's object. */
__attribute__((noinline)) static int leak_local(int n)
{
	int local[10];
	for (int i = 0; i < 10; i++)
		local[i] = n + i;
	keep(local);
	return local[n % 10];
}

/* Frames of the same size class, in between. */
__attribute__((noinline)) static int other(int n)
{
	int buf[10];
	for (int i = 0; i < 10; i++)
		buf[i] = i;
	keep(buf);
	return buf[n % 10];
}

KASAN_TEST void stack_use_after_return(int n)
{
	leak_local(n);
	int *p = leaked + 2;
	KASAN_EXPECT_FAIL(kasan_int_result = *p, .type = "stack-use-after-return", .rw = "Read", .size = 4, .addr = p);
	leak_local(n);
	p = leaked + 3;
	for (int i = 0; i < 100; i++)
		other(i);
	KASAN_EXPECT_FAIL(*p = 1, .type = "stack-use-after-return", .rw = "Write", .size = 4, .addr = p);
	int sum = 0;
	for (int i = 0; i < 10; i++)
		sum += other(i);
	printf("sum %d\n", sum);
}

int main(int argc, char **argv)
{
	stack_use_after_return(argc);
	return 0;
}
