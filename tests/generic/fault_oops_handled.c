// MODE: generic
// ARGS: 1
// fault_oops.c with a SIGSEGV handler of the program's own: the fault is
// the program's business, so no oops is printed, and the handler runs.
// STATUS: 3
// NOT: BUG:
// NOT: general protection fault
// STDOUT: the program's handler ran
#include <signal.h>
#include <unistd.h>

static void on_segv(int sig)
{
	(void)sig;
	static const char msg[] = "the program's handler ran\n";
	write(1, msg, sizeof(msg) - 1);
	_exit(3);
}

__attribute__((constructor)) static void install(void)
{
	signal(SIGSEGV, on_segv);
}

#define FAULT_OOPS_NO_REPORT
#include "fault_oops.c"
