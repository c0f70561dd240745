// MODE: generic
// RUN: kasan.stack_use_after_return=on
// Frames on the fake stack that a longjmp abandons never run their return
// path, so their slots stay taken; 40000 rounds of three such frames would
// use up every slot of their size class (16384), and then frames go back to
// the real stack, where a use after return is not caught. The slots of
// frames deeper than where the longjmp landed are given back after it, so
// the use after return at the end is still caught, and nothing before it
// is reported.
// EXPECT: BUG: KASAN: stack-use-after-return in main+0x
// EXPECT-RE: ^ leak_local(\.\w+\.\d+)?\+0x0/0x[0-9a-f]+\n\nThis frame has 1 object:\n \[\d+, \d+\) 'local'$
// COUNT: 1 BUG: KASAN:
// STDOUT: 40000 rounds
#include "kasan_test.h"

#include <setjmp.h>
#include <stdio.h>

static jmp_buf env;
static int *volatile leaked;

__attribute__((noinline)) static void keep(int *p)
{
	leaked = p;
}

__attribute__((noinline)) static void level(int depth)
{
	int local[8];
	keep(local);
	if (depth == 0)
		longjmp(env, 1);
	level(depth - 1);
	local[depth] = depth;
}

__attribute__((noinline)) static void leak_local(void)
{
	int local[8];
	keep(local);
}

int main(void)
{
	int rounds = 0;
	for (int i = 0; i < 40000; i++)
		if (!setjmp(env))
			level(2);
		else
			rounds++;
	printf("%d rounds\n", rounds);
	leak_local();
	kasan_int_result = leaked[1];
	return 0;
}
