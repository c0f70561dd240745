// MODE: generic
// TAG-MODES: sw_tags hw_tags
// A program that handles every real-time signal itself, as Go's runtime
// does, leaves kmemleak none to stop its threads with: it borrows one for
// the check and gives it back. The check finds the lost object, a spinning
// thread's object (in a register) is no leak, the program's handlers see
// none of the check's signals, and get their own again afterwards.
// RUN: kfence.sample_interval=0
// STATUS: 1
// EXPECT-RE: unreferenced object 0x[0-9a-f]{16} \(size 72\):(\n.*){5,7}\n    \[<[0-9a-f]+>\] lose\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kmemleak/leak_rt_signals_taken.c:\d+
// EXPECT: ukasan: kmemleak: 1 new suspected memory leak (72 bytes)
// COUNT: 1 BUG: memory leak
// NOT: no real-time signal free
// STDOUT: leak check found leaks: 1
// STDOUT: signals the program's handlers saw during the check: 0
// STDOUT: its own signals reach its handlers as before the check: yes
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "leak_test.h"

LSAN_API int __lsan_do_recoverable_leak_check(void);

static volatile int seen[_NSIG];
static int ready, done;

static void handler(int sig, siginfo_t *info, void *uctx)
{
	(void)info;
	(void)uctx;
	seen[sig]++;
}

/* Each real-time signal raised once (qemu-user delivers all but its own
 * last two); how many reached the handlers. */
static int raise_all(void)
{
	memset((void *)seen, 0, sizeof(seen));
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		raise(sig);
	int n = 0;
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		n += seen[sig];
	memset((void *)seen, 0, sizeof(seen));
	return n;
}

LEAK_TEST void lose(void)
{
	char *p = malloc(72);
	HIDE(p);
	memset(p, 1, 72);
	HIDE(p);
}

LEAK_TEST void *spin_holds(void *arg)
{
	char *p = malloc(88);
	HIDE(p);
	p[0] = 1;
	__atomic_store_n(&ready, 1, __ATOMIC_RELEASE);
	while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE))
		HIDE(p);
	free(p);
	return arg;
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = handler;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		sigaction(sig, &sa, NULL);
	int before = raise_all();
	pthread_t t;
	pthread_create(&t, NULL, spin_holds, NULL);
	while (!__atomic_load_n(&ready, __ATOMIC_ACQUIRE))
		;
	run_deep(lose);
	clear_stack();
	int r = __lsan_do_recoverable_leak_check();
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	int during = 0;
	for (int sig = SIGRTMIN; sig <= SIGRTMAX; sig++)
		during += seen[sig];
	printf("leak check found leaks: %d\n", r);
	printf("signals the program's handlers saw during the check: %d\n", during);
	int after = raise_all();
	printf("its own signals reach its handlers as before the check: %s\n",
	       before > 0 && after == before ? "yes" : "no");
	return 0;
}
