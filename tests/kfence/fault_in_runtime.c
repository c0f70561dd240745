// A fault in ukasan's own code under the preload: here a wild struct
// sigaction, which ukasan's sigaction wrapper reads (SIGSEGV is ukasan's).
// The program dies of SIGSEGV as it does without ukasan (glibc reads the
// structure too), with the kernel's oops saying where and that the
// instruction is ukasan's; a fault in the program's own code stays the
// program's (segv_default.c). Before: with no word, or hung on a lock.
// STATUS: signal SIGSEGV
// EXPECT: BUG: unable to handle page fault for address: 0000000000000010
// EXPECT: #PF: user read access in user mode
// EXPECT-RE: ^(RIP: 0033:|pc : )sigaction\+0x
// EXPECT: The faulting instruction is in ukasan's own code
// EXPECT-RE: ^ \[<[0-9a-f]+>\] sigaction\+0x[0-9a-f]+/0x[0-9a-f]+ \S*src/platform/signals\.c:\d+ \[libukasan\.so\]\n \[<[0-9a-f]+>\] take_segv\+0x[0-9a-f]+/0x[0-9a-f]+ \S*fault_in_runtime\.c:\d+
// COUNT: 2 ==================================================================
#include <signal.h>
#include <stdint.h>
#include <stdio.h>

__attribute__((noinline)) static int take_segv(const struct sigaction *act)
{
	int r = sigaction(SIGSEGV, act, NULL);
	__asm__ volatile("" : : "r"(r) : "memory"); /* not a tail call */
	return r;
}

int main(void)
{
	const struct sigaction *volatile wild = (const struct sigaction *)(uintptr_t)0x10;
	printf("%d\n", take_segv(wild));
	return 0;
}
