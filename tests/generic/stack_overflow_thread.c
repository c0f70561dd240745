// MODE: generic
// ARGS: thread
// stack_overflow.c in a thread made with pthread_create: its stack runs
// into the guard page glibc maps below it. The thread got ukasan's
// alternate signal stack when it started.
// STATUS: signal SIGSEGV
// EXPECT-RE: ^BUG: stack guard page was hit at [0-9a-f]{16} \(stack is [0-9a-f]{16}\.\.[0-9a-f]{16}\)\nOops: stack guard page: 0000 \[#1\] SMP KASAN\nCPU: \d+ UID: \d+ PID: \d+ Comm: \S
// EXPECT-RE: ^(RIP: 0033:|pc : )recurse\+0x
// EXPECT: Call Trace:
// EXPECT-RE: ( \[<[0-9a-f]+>\] recurse\+0x[0-9a-f]+/0x[0-9a-f]+ tests/generic/_stack_overflow.h:\d+\n){20}
// COUNT: 2 ==================================================================
// NOT: unable to handle page fault
#include "_stack_overflow.h"
