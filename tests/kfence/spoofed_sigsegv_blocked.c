// RUN: kfence.sample_rate=1
// A SIGSEGV a process sends while the program's SIGSEGV handler runs (and
// so believes SIGSEGV blocked) waits, as the kernel keeps it pending: the
// handler is not entered again until it returns, or until siglongjmp
// restores the mask, although ukasan keeps SIGSEGV open for its own faults
// meanwhile. Each arrives once, with its si_code; nothing is reported but
// the real overflow at the end. (SEGV_MAPERR is 1.)
// STDOUT: 1: si_code -1 elsewhere, depth 1
// STDOUT: 2: si_code -1 at the guard, depth 1
// STDOUT: 3: si_code 1 elsewhere, depth 1
// STDOUT: 4: si_code -1 at the guard, depth 1
// STDOUT: 5: si_code 1 elsewhere, depth 1
// STDOUT: calls: 5, nested: 0
// EXPECT: BUG: KFENCE: out-of-bounds write in overflow+0x
// COUNT: 1 BUG: KFENCE:
#include <setjmp.h>
#include <signal.h>
#include <string.h>

#include "_spoof.h"
#include "kfence_test.h"

static char *volatile guard;
static sigjmp_buf env;
static volatile int depth, nested, calls;
static volatile int codes[8], at[8], depths[8];

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	depth++;
	if (depth > 1)
		nested = 1;
	int n = calls++;
	if (n < 8) {
		codes[n] = si->si_code;
		at[n] = (char *)si->si_addr == guard;
		depths[n] = depth;
	}
	int real = si->si_code > 0;
	/* The first of each pair sends the second, which must wait. */
	if (n == 0 || n == 2)
		spoof_to(getpid(), SI_QUEUE, guard);
	depth--;
	if (real)
		siglongjmp(env, 1); /* the pending one arrives inside */
}

__attribute__((noinline)) static void overflow(char *p)
{
	*(volatile char *)p = 1;
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, NULL);
	char *p = test_alloc(32, RIGHT);
	guard = (char *)(((uintptr_t)p + 4095) & ~(uintptr_t)4095);

	/* A sent one, whose handler returns. */
	spoof_to(getpid(), SI_QUEUE, p);
	/* A real fault (not KFENCE's), whose handler jumps out. */
	if (sigsetjmp(env, 1) == 0)
		*(volatile int *)16 = 1;
	/* And again: the jump ended what the handler believed blocked. */
	if (sigsetjmp(env, 1) == 0)
		*(volatile int *)32 = 1;
	for (int i = 0; i < calls && i < 8; i++)
		printf("%d: si_code %d %s, depth %d\n", i + 1, codes[i],
		       at[i] ? "at the guard" : "elsewhere", depths[i]);
	printf("calls: %d, nested: %d\n", calls, nested);
	fflush(stdout);
	expect("Out-of-bounds write at %p (%luB right of kfence-#", (void *)guard,
	       (unsigned long)(guard - p));
	overflow(guard);
	free(p);
	return 0;
}
