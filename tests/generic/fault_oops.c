// MODE: generic
// ARGS: 1
// A fault that no shadow check can see coming, as AddressSanitizer reports
// a SEGV: a read of unmapped memory (its shadow reads as accessible) in the
// program, and a pointer overwritten with text that libc then follows (a
// non-canonical address: a general protection fault). Each gets the
// kernel's oops with the call trace, and the program then dies of the
// signal as it would have. tests/generic/fault_oops_handled.c: with a
// handler of its own the program gets the fault and no report is printed.
// STATUS: signal SIGSEGV
// EXPECT: BUG: unable to handle page fault for address: 0000000000010000
// EXPECT: #PF: user read access in user mode
// EXPECT: Call Trace:
// EXPECT:  read_unmapped+0x
// EXPECT: tests/generic/fault_oops.c:
// EXPECT:  main+0x
// COUNT: 2 ==================================================================
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Expectations printed on stdout, checked in their own order. */
static void expect(const char *line)
{
	printf("EXPECT: %s\n", line);
	fflush(stdout);
}

__attribute__((noinline)) static int read_unmapped(int n)
{
	volatile int *p = (volatile int *)(0x10000l * n);
	return *p;
}

struct record {
	char name[16];
	char *note;
};

__attribute__((noinline)) static void follow_overwritten(void)
{
	struct record r = {"", "fine"};
	/* Twenty-four bytes into the sixteen of name: note becomes text. */
	memcpy(&r, "AAAAAAAAAAAAAAAAAAAAAAAA", 24);
	puts(r.note);
	__asm__ volatile(""); /* not a tail call: this frame stays in the trace */
}

int main(int argc, char **argv)
{
	if (argc > 2)
		follow_overwritten();
	/* The fault's code and pc line, each architecture's: x86-64's error
	 * code says a user-mode read of a page not present; arm64's is the
	 * data abort's ESR, with WnR clear. */
#if defined(FAULT_OOPS_NO_REPORT)
#elif defined(__aarch64__)
	expect("#PF: user read access in user mode");
	expect("pc : read_unmapped+0x");
#else
	expect("#PF: error_code(0x0004) - not-present page");
	expect("RIP: 0033:read_unmapped+0x");
#endif
	printf("%d\n", read_unmapped(atoi(argv[1])));
	return 0;
}
