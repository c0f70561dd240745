// MODE: generic
// With kasan.stack_use_after_return=on, address-taken locals live in fake
// frames, not on the thread's stack: a live frame is a root (its object is
// no leak while the frame is live), a returned one is not (the object is
// lost once the function that held it has returned).
// RUN: kfence.sample_interval=0 kasan.stack_use_after_return=on
// STATUS: 1
// STDOUT: while held: 0
// EXPECT-RE: unreferenced object 0x[0-9a-f]{16} \(size 56\):(\n.*){5,7}\n    \[<[0-9a-f]+>\] holds\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kmemleak/leak_fake_stack.c:\d+
// EXPECT: ukasan: kmemleak: 1 new suspected memory leak (56 bytes)
// COUNT: 1 BUG: memory leak
#include <stdio.h>
#include <stdlib.h>

#include "leak_test.h"

int __lsan_do_recoverable_leak_check(void);

LEAK_TEST static void keep(char **slot)
{
	__asm__ volatile("" : : "r"(slot) : "memory");
}

LEAK_TEST void holds(void)
{
	char *local[4]; /* address taken: in a fake frame */
	local[1] = malloc(56);
	local[1][0] = 1;
	keep(local);
	printf("while held: %d\n", __lsan_do_recoverable_leak_check());
	fflush(stdout);
	keep(local);
}

int main(void)
{
	run_deep(holds);
	clear_stack();
	return 0;
}
