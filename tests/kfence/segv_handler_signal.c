// RUN: kfence.sample_rate=1
// STATUS: 3
// NOT: BUG: KFENCE
#include <signal.h>
#include <unistd.h>

#include "kfence_test.h"

static void on_segv(int sig)
{
	(void)sig;
	_exit(3);
}

int main(void)
{
	/* A handler installed with plain signal() is called for a wild
	 * access. */
	signal(SIGSEGV, on_segv);
	*(volatile int *)8 = 1;
	return 0;
}
