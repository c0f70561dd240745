// MODE: generic
// RUN: kfence.sample_rate=1
// A use after free of an object KFENCE sampled, in a ukasan-cc program: the
// read faults on KFENCE's protected page, and KFENCE claims its own fault
// before any oops, as in the kernel. One report, KFENCE's: no "unable to
// handle page fault" before it, and the program runs on.
// EXPECT: BUG: KFENCE: use-after-free read in read_freed+0x
// EXPECT-RE: ^ \[<[0-9a-f]+>\] read_freed\+0x[0-9a-f]+/0x[0-9a-f]+ tests/generic/kfence_uaf_one_report\.c:\d+\n \[<[0-9a-f]+>\] main\+0x
// EXPECT: freed by task
// COUNT: 1 BUG:
// COUNT: 2 ==================================================================
// NOT: unable to handle page fault
// NOT: Oops
// STDOUT: ran on
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static int read_freed(volatile int *p)
{
	int v = p[3];
	__asm__ volatile(""); /* not a tail call: this frame stays in the trace */
	return v;
}

int main(void)
{
	int *p = calloc(8, sizeof(int));
	free(p);
	int v = read_freed(p);
	printf("ran on %d\n", v);
	return 0;
}
