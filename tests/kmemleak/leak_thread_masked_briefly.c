// MODE: generic
// TAG-MODES: sw_tags hw_tags
// A thread that blocks every signal for a moment while it runs, as Go's
// runtime does in a thread it is starting or ending, has no stack pointer
// to give while it does: the check waits for it to take the signal, and
// runs, where it gave up before ("could not be stopped": no leak check, 1
// run in 100 of a Go program). The lost object is found; the object the
// thread holds in a register is no leak.
// RUN: kfence.sample_interval=0
// STATUS: 1
// EXPECT-RE: unreferenced object 0x[0-9a-f]{16} \(size 72\):(\n.*){5,7}\n    \[<[0-9a-f]+>\] lose\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kmemleak/leak_thread_masked_briefly.c:\d+
// EXPECT: ukasan: kmemleak: 1 new suspected memory leak (72 bytes)
// COUNT: 1 BUG: memory leak
// NOT: could not be stopped
// STDOUT: leak check found leaks: 1
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "leak_test.h"

LSAN_API int __lsan_do_recoverable_leak_check(void);

static int masked, done;

static long long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000LL + ts.tv_nsec / 1000000;
}

LEAK_TEST void lose(void)
{
	char *p = malloc(72);
	HIDE(p);
	memset(p, 1, 72);
	HIDE(p);
}

/* Holds its object in a register throughout; every signal blocked for
 * the first 100 ms of the check, running all the while. */
LEAK_TEST void *masked_holds(void *arg)
{
	char *p = malloc(88);
	HIDE(p);
	p[0] = 1;
	sigset_t all, old;
	sigfillset(&all);
	pthread_sigmask(SIG_SETMASK, &all, &old);
	long long until = now_ms() + 100;
	__atomic_store_n(&masked, 1, __ATOMIC_RELEASE);
	while (now_ms() < until)
		HIDE(p);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	while (!__atomic_load_n(&done, __ATOMIC_ACQUIRE))
		HIDE(p);
	free(p);
	return arg;
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, masked_holds, NULL);
	while (!__atomic_load_n(&masked, __ATOMIC_ACQUIRE))
		;
	run_deep(lose);
	clear_stack();
	int r = __lsan_do_recoverable_leak_check();
	__atomic_store_n(&done, 1, __ATOMIC_RELEASE);
	pthread_join(t, NULL);
	printf("leak check found leaks: %d\n", r);
	return 0;
}
