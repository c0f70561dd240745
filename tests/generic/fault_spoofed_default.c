// MODE: generic
// A SIGSEGV another process sends claiming an address in the shadow gap,
// with no handler of the program's: it dies of SIGSEGV as without ukasan,
// with no report (no wild-memory-access, no oops).
// STATUS: signal SIGSEGV
// NOT: wild-memory-access
// NOT: BUG:
// NOT: general protection fault
// STDOUT: spoofing
#include <stdio.h>

#include "../kfence/_spoof.h"

#ifdef __aarch64__
#define SHADOW_OFFSET 0x100000000000ul
#else
#define SHADOW_OFFSET 0x7fff8000ul
#endif

int main(void)
{
	char *gap = (char *)((SHADOW_OFFSET >> 3) + SHADOW_OFFSET + 0x1000);
	printf("spoofing\n");
	fflush(stdout);
	spoof_from_child(gap);
	printf("still alive\n");
	return 0;
}
