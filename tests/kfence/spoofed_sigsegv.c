// RUN: kfence.sample_rate=1
// A SIGSEGV another process sends (SI_QUEUE), or the program sends itself
// (SI_USER, SI_TKILL), claiming an address in a KFENCE guard page, is the
// program's: its handler gets each with its own si_code, ukasan reports
// nothing, and the guard page stays closed, so the real overflow into it
// afterwards is reported.
// STDOUT: handler: si_code -1 at the guard
// STDOUT: handler: si_code 0 at the guard
// STDOUT: handler: si_code -6 at the guard
// EXPECT: BUG: KFENCE: out-of-bounds write in overflow+0x
// COUNT: 1 BUG: KFENCE:
// STDOUT: the overflow was reported
#include <signal.h>
#include <string.h>

#include "_spoof.h"
#include "kfence_test.h"

static char *volatile guard;

/* What the handler saw, printed later: stdio is not for handlers (the
 * signal may arrive while fork holds its locks). */
static volatile int codes[3], at[3], seen;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	if (seen < 3) {
		codes[seen] = si->si_code;
		at[seen] = (char *)si->si_addr == guard;
		seen++;
	}
}

static void print_seen(void)
{
	for (int i = 0; i < seen; i++)
		printf("handler: si_code %d %s\n", codes[i], at[i] ? "at the guard" : "elsewhere");
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
	if (spoof_from_child(guard) != 0)
		return 90;
	if (spoof_to(getpid(), SI_USER, guard) != 0 || spoof_to(getpid(), SI_TKILL, guard) != 0)
		return 91;
	print_seen();
	expect("Out-of-bounds write at %p (%luB right of kfence-#", (void *)guard,
	       (unsigned long)(guard - p));
	overflow(guard);
	if (ukasan_report_count && ukasan_report_count() == 1)
		printf("the overflow was reported\n");
	free(p);
	return 0;
}
