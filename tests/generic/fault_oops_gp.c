// MODE: generic
// ARGS: 1 gp
// ARCH: x86_64 -- arm64 has no general protection fault: an address
// beyond the 48 bits is an ordinary translation fault, as in fault_oops.c.
// fault_oops.c's second fault: a pointer in a struct overwritten with text
// by an overflow inside the struct (which no redzone sees), then followed
// by puts: the non-canonical address is a general protection fault, which
// does not say the address. The kernel's oops names the instruction in
// libc and the trace leads back to the program.
// STATUS: signal SIGSEGV
// EXPECT: general protection fault: 0000 [#1] SMP KASAN
// EXPECT: RIP: 0033:
// EXPECT: Call Trace:
// EXPECT:  puts+0x
// EXPECT:  follow_overwritten+0x
// EXPECT:  main+0x
// NOT: BUG: unable to handle page fault
#include "fault_oops.c"
