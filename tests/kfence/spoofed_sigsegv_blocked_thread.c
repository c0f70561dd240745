// RUN: kfence.sample_rate=1
// CFLAGS: -pthread
// ARCH: x86_64 -- qemu-user leaves a signal sent to the process on the thread the host gave it to, even one that blocks it (calls: 0 there)
// spoofed_sigsegv_blocked.c on a thread other than the main one, with the
// signals sent as kill and tgkill send them (SI_USER, SI_TKILL): each waits
// until the handler that believes SIGSEGV blocked returns, then arrives
// once (a thread may send itself those codes only by thread, so that is
// how ukasan sends what it held back).
// STDOUT: 1: si_code -1, depth 1
// STDOUT: 2: si_code 0, depth 1
// STDOUT: 3: si_code -1, depth 1
// STDOUT: 4: si_code -6, depth 1
// STDOUT: calls: 4, nested: 0
// NOT: BUG:
#include <pthread.h>
#include <signal.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "_spoof.h"
#include "kfence_test.h"

static volatile int depth, nested, calls;
static volatile int codes[8], depths[8];

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
		depths[n] = depth;
	}
	if (n == 0)
		kill(getpid(), SIGSEGV); /* this thread: main blocks SIGSEGV */
	if (n == 2)
		syscall(SYS_tgkill, getpid(), syscall(SYS_gettid), SIGSEGV);
	depth--;
}

static void *run(void *arg)
{
	(void)arg;
	sigset_t set; /* main's mask, inherited */
	sigemptyset(&set);
	sigaddset(&set, SIGSEGV);
	pthread_sigmask(SIG_UNBLOCK, &set, NULL);
	spoof_to(getpid(), SI_QUEUE, NULL);
	spoof_to(getpid(), SI_QUEUE, NULL);
	return NULL;
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_segv;
	sa.sa_flags = SA_SIGINFO;
	sigaction(SIGSEGV, &sa, NULL);
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGSEGV);
	pthread_sigmask(SIG_BLOCK, &set, NULL);
	pthread_t t;
	pthread_create(&t, NULL, run, NULL);
	pthread_join(t, NULL);
	for (int i = 0; i < calls && i < 8; i++)
		printf("%d: si_code %d, depth %d\n", i + 1, codes[i], depths[i]);
	printf("calls: %d, nested: %d\n", calls, nested);
	return 0;
}
