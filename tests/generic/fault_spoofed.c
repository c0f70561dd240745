// MODE: generic
// A SIGSEGV another process sends (SI_QUEUE), or the program sends itself
// (SI_USER), claiming an address in the shadow gap, is the program's: its
// handler gets it with its si_code, and no wild-memory-access is reported.
// NOT: wild-memory-access
// NOT: BUG:
// STDOUT: handler: si_code -1 in the gap
// STDOUT: handler: si_code 0 in the gap
// STDOUT: the program ran on
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "../kfence/_spoof.h"

#ifdef __aarch64__
#define SHADOW_OFFSET 0x100000000000ul
#else
#define SHADOW_OFFSET 0x7fff8000ul
#endif

/* The shadow of the shadow: a load there is a wild access ukasan reports
 * (a shadow check of a pointer into the shadow region). */
static char *const gap = (char *)((SHADOW_OFFSET >> 3) + SHADOW_OFFSET + 0x1000);

/* What the handler saw, printed later: stdio is not for handlers (the
 * signal may arrive while fork holds its locks). */
static volatile int codes[3], at[3], seen;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	if (seen < 3) {
		codes[seen] = si->si_code;
		at[seen] = (char *)si->si_addr == gap;
		seen++;
	}
}

static void print_seen(void)
{
	for (int i = 0; i < seen; i++)
		printf("handler: si_code %d %s\n", codes[i], at[i] ? "in the gap" : "elsewhere");
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, NULL);
	if (spoof_from_child(gap) != 0)
		return 90;
	if (spoof_to(getpid(), SI_USER, gap) != 0)
		return 91;
	print_seen();
	printf("the program ran on\n");
	return 0;
}
