// MODE: generic
// A real stack-out-of-bounds on an annotated fiber's stack
// (tests/api/_fiber.h) is reported as on any stack: its type, the access
// size, the frame and its variable, and a call trace of the fiber's own
// frames, from the function that overflowed to the fiber's entry, and none
// of main's (the last may be glibc's __start_context). The program's first call into the runtime is the first
// switch: main's bounds must still come back as main's stack's.
// EXPECT: BUG: KASAN: stack-out-of-bounds in fiber_overflow+0x
// EXPECT-RE: ^Write of size 4 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT-RE: ^Call Trace:\n <TASK>\n \[<[0-9a-f]+>\] fiber_overflow\+0x[0-9a-f]+/0x[0-9a-f]+ tests/api/fiber_oob\.c:\d+\n \[<[0-9a-f]+>\] fiber_level\+0x[0-9a-f]+/0x[0-9a-f]+ tests/api/fiber_oob\.c:\d+\n \[<[0-9a-f]+>\] fiber_level\+0x[0-9a-f]+/0x[0-9a-f]+ tests/api/fiber_oob\.c:\d+\n \[<[0-9a-f]+>\] fiber_entry\+0x[0-9a-f]+/0x[0-9a-f]+ tests/api/fiber_oob\.c:\d+\n( \[<[0-9a-f]+>\] [^\n]*libc\.so\.6[^\n]*\n)? </TASK>$
// EXPECT-RE: ^The buggy address belongs to stack of task \S+/\d+$
// EXPECT-RE: ^ and is located at offset \d+ in frame:\n fiber_overflow\+0x0/0x[0-9a-f]+$
// EXPECT-RE: ^This frame has \d+ objects?:$
// EXPECT-RE: ^ \[\d+, \d+\) 'fiber_array'$
// COUNT: 1 BUG: KASAN:
// NOT: FAIL
// STDOUT: back in main
#include "_fiber.h"

#include <sys/mman.h>

#define STACK_SIZE (128ul << 10)

static struct fiber fiber;
static volatile int past = 8;

__attribute__((noinline)) static int fiber_overflow(void)
{
	int fiber_array[8];
	int *volatile p = fiber_array;
	for (int i = 0; i < 8; i++)
		p[i] = i;
	printf("EXPECT: Write of size 4 at addr %016lx by task\n", (unsigned long)&p[past]);
	fflush(stdout);
	p[past] = 1; /* one int past the end */
	return p[3];
}

__attribute__((noinline)) static int fiber_level(int n)
{
	return (n ? fiber_level(n - 1) : fiber_overflow()) + 1;
}

static void fiber_entry(void)
{
	fiber_arrived();
	printf("on the fiber: %d\n", fiber_level(1));
	fflush(stdout);
	fiber_switch(&main_fiber, 1);
}

int main(void)
{
	char *stack = mmap(NULL, STACK_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
	                   -1, 0);
	FAIL_IF(stack == MAP_FAILED);
	fiber_make(&fiber, stack, STACK_SIZE, fiber_entry);
	fiber_switch(&fiber, 0);
	printf("back in main\n");
	return 0;
}
