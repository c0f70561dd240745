// MODE: generic
// ARGS: null
// A call through a bad function pointer: NULL plus 4, a member of a table
// of function pointers reached through NULL. The fault is the fetch of the
// instruction at the bad pc, where no unwinder can start (it reads the code
// there: the handler faulted a second time). The kernel's page fault oops
// says so, with a trace that starts at the bad pc and goes on from the
// caller (the return address the call pushed on x86-64, the link register
// on arm64); the program then dies of SIGSEGV as it would have.
// tests/generic/bad_pc_nx.c: a call into memory that is not executable.
// STATUS: signal SIGSEGV
// EXPECT: BUG: unable to handle page fault for address: 0000000000000004
// EXPECT: #PF: user instruction fetch in user mode
// EXPECT-RE: ^(RIP: 0033:|pc : )0x4\n
// EXPECT: Call Trace:
// EXPECT-RE: ^ <TASK>\n \[<[0-9a-f]+>\] 0x4\b[^\n]*\n \[<[0-9a-f]+>\] call_through\+0x[0-9a-f]+/0x[0-9a-f]+ tests/generic/bad_pc\.c:\d+\n \[<[0-9a-f]+>\] main\+0x
// COUNT: 2 ==================================================================
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>

typedef int (*fn_t)(int);

__attribute__((noinline)) static int call_through(fn_t f, int x)
{
	int r = f(x);
	__asm__ volatile(""); /* not a tail call: this frame stays in the trace */
	return r + 1;
}

/* Expectations printed on stdout, checked in their own order. */
static void expect(const char *line)
{
	printf("EXPECT: %s\n", line);
	fflush(stdout);
}

int main(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "nx")) {
		/* Mapped and readable, but not executable. */
		void *page = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
		                  -1, 0);
		if (page == MAP_FAILED)
			return 90;
		char line[128];
		snprintf(line, sizeof(line), "BUG: unable to handle page fault for address: %016lx",
		         (unsigned long)page);
		expect(line);
		return call_through((fn_t)page, argc);
	}
#if defined(__x86_64__)
	/* The CPU's error code: a user-mode instruction fetch, page not present. */
	expect("#PF: error_code(0x0014) - not-present page");
#endif
	return call_through((fn_t)4, argc);
}
