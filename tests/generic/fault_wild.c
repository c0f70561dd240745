// MODE: generic
// A real access through a pointer into the shadow region (its check's
// shadow load faults in the gap): wild-memory-access, once, and the program
// then dies of SIGSEGV. fault_spoofed.c's control: a SIGSEGV the kernel
// raised for the same kind of address is ukasan's.
// STATUS: signal SIGSEGV
// EXPECT: BUG: KASAN: wild-memory-access in read_wild+0x
// COUNT: 1 BUG: KASAN:
// NOT: BUG: unable to handle page fault
#include "kasan_test.h"

__attribute__((noinline)) static char read_wild(char *p)
{
	return *(volatile char *)p;
}

int main(void)
{
	char *p = (char *)(KASAN_TEST_SHADOW_OFFSET + 0x100000);
	OPTIMIZER_HIDE_VAR(p);
	read_wild(p);
	return 0;
}
