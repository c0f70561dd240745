// tests/generic/stack_overflow_thread.c under the KFENCE preload, with no
// rebuild: a stack overflow is reported there too (without KASAN in the
// oops line), and the program dies of SIGSEGV as it would have.
// ARGS: thread
// STATUS: signal SIGSEGV
// EXPECT-RE: ^BUG: stack guard page was hit at [0-9a-f]{16} \(stack is [0-9a-f]{16}\.\.[0-9a-f]{16}\)\nOops: stack guard page: 0000 \[#1\] SMP\nCPU: \d+ UID: \d+ PID: \d+ Comm: \S
// EXPECT-RE: ^(RIP: 0033:|pc : )recurse\+0x
// EXPECT: Call Trace:
// EXPECT-RE: ( \[<[0-9a-f]+>\] recurse\+0x[0-9a-f]+/0x[0-9a-f]+ [^\n]*_stack_overflow.h:\d+\n){20}
// COUNT: 2 ==================================================================
// NOT: unable to handle page fault
#include "../generic/_stack_overflow.h"
