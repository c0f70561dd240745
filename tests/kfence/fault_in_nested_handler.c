// RUN: kfence.sample_rate=1
// A KFENCE fault in a program's SIGUSR1 handler that runs inside its
// SIGSEGV handler, which ukasan's own SIGSEGV handler called: reported, and
// the program runs on as it does without ukasan (the kernel killed it,
// silently, while ukasan's handler kept SIGSEGV blocked).
// EXPECT: BUG: KFENCE: out-of-bounds read in read_past+0x
// EXPECT: on_usr1+0x
// EXPECT: on_segv+0x
// COUNT: 1 BUG: KFENCE:
// STDOUT: the SIGSEGV handler ran, and SIGUSR1's inside it
#include <setjmp.h>
#include <signal.h>
#include <string.h>

#include "kfence_test.h"

static char *volatile obj;
static sigjmp_buf env;
static volatile int usr1_ran;

__attribute__((noinline)) static char read_past(const char *p, size_t n)
{
	return *(volatile const char *)(p + n);
}

static void on_usr1(int sig)
{
	(void)sig;
	read_past(obj, 32);
	usr1_ran = 1;
}

static void on_segv(int sig)
{
	(void)sig;
	raise(SIGUSR1);
	siglongjmp(env, 1);
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	sa.sa_handler = on_segv;
	sigaction(SIGSEGV, &sa, NULL);
	obj = test_alloc(32, RIGHT);
	expect("Out-of-bounds read at %p (32B right of kfence-#", (void *)(obj + 32));
	if (sigsetjmp(env, 1) == 0)
		*(volatile int *)16 = 1; /* not KFENCE's: the program's handler */
	if (usr1_ran)
		printf("the SIGSEGV handler ran, and SIGUSR1's inside it\n");
	free(obj);
	return 0;
}
