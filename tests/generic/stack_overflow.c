// MODE: generic
// A recursion with no end: the main thread's stack runs into the gap the
// kernel keeps below it. ukasan's handler runs on its own alternate signal
// stack, so the overflow is reported as the kernel reports one (the range
// of the stack it ran off, then the oops with the recursion's trace, at
// most 64 frames), and the program then dies of SIGSEGV as it would have.
// STATUS: signal SIGSEGV
// EXPECT-RE: ^BUG: stack guard page was hit at [0-9a-f]{16} \(stack is [0-9a-f]{16}\.\.[0-9a-f]{16}\)\nOops: stack guard page: 0000 \[#1\] SMP KASAN\nCPU: \d+ UID: \d+ PID: \d+ Comm: \S
// EXPECT-RE: ^(RIP: 0033:|pc : )recurse\+0x
// EXPECT: Call Trace:
// EXPECT-RE: ( \[<[0-9a-f]+>\] recurse\+0x[0-9a-f]+/0x[0-9a-f]+ tests/generic/_stack_overflow.h:\d+\n){20}
// COUNT: 2 ==================================================================
// NOT: unable to handle page fault
#include "_stack_overflow.h"
