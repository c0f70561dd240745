// RUN: kfence.sample_rate=1
// A SIGSEGV another process sends claiming an address in a KFENCE guard
// page, with no handler of the program's: the default action, as without
// ukasan (the process dies of SIGSEGV), and no report.
// STATUS: signal SIGSEGV
// NOT: BUG:
// NOT: KFENCE
// STDOUT: spoofing
#include "_spoof.h"
#include "kfence_test.h"

int main(void)
{
	char *p = test_alloc(32, RIGHT);
	char *guard = (char *)(((uintptr_t)p + 4095) & ~(uintptr_t)4095);
	printf("spoofing\n");
	fflush(stdout);
	spoof_from_child(guard);
	printf("still alive\n");
	return 0;
}
