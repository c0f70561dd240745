// MODE: generic
// ARGS: nx
// tests/generic/bad_pc.c's call into a page that is mapped and readable but
// not executable: an instruction fetch that violates the page's permissions.
// STATUS: signal SIGSEGV
// EXPECT: #PF: user instruction fetch in user mode
// EXPECT-RE: ^#PF: error_code\(0x[0-9a-f]+\) - permissions violation\n
// EXPECT: Call Trace:
// EXPECT-RE: ^ <TASK>\n \[<[0-9a-f]+>\] 0x[0-9a-f]+\b[^\n]*\n \[<[0-9a-f]+>\] call_through\+0x[0-9a-f]+/0x[0-9a-f]+ tests/generic/bad_pc\.c:\d+\n \[<[0-9a-f]+>\] main\+0x
// COUNT: 2 ==================================================================
#include "bad_pc.c"
