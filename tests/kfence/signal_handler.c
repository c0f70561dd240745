// RUN: kfence.sample_rate=1
// EXPECT: BUG: KFENCE: use-after-free read in main+0x
// COUNT: 1 BUG: KFENCE:
// STDOUT: handler saw 0x10
// STDOUT: old handler is ours
#include <setjmp.h>
#include <signal.h>
#include <string.h>

#include "kfence_test.h"

static sigjmp_buf env;
static void *fault_addr;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	fault_addr = si->si_addr;
	siglongjmp(env, 1);
}

int main(void)
{
	/* The program's own SIGSEGV handler gets the faults that are not
	 * KFENCE's; KFENCE keeps catching its own. */
	struct sigaction sa, old;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, NULL);
	if (sigsetjmp(env, 1) == 0) {
		*(volatile int *)0x10 = 1;
		return 84;
	}
	printf("handler saw %p\n", fault_addr);
	char *p = test_alloc(16, ANY);
	free(p);
	expect("Use-after-free read at %p (in kfence-#", (void *)p);
	char c = *(volatile char *)p;
	(void)c;
	sigaction(SIGSEGV, NULL, &old);
	if (old.sa_sigaction == on_segv)
		printf("old handler is ours\n");
	/* signal() is interposed too. */
	if (signal(SIGSEGV, SIG_DFL) == SIG_ERR)
		return 83;
	return 0;
}
