// MODE: generic
// TAG-MODES: sw_tags hw_tags
// A new thread's argument is often the only pointer to an object
// (std::thread's state, a task). From pthread_create until the thread runs
// its routine, the runtime holds it in its record of the start, which a
// leak check made in between must read, as LeakSanitizer scans the
// arguments of threads not started: libFuzzer's RSS thread, started just
// before a one-input run exits, was reported leaked 1 run in 2. The new
// thread is kept on the creator's CPU, so the check finds it not started.
// Each check finds the object lost on purpose, and never the argument.
// RUN: kfence.sample_interval=0
// STATUS: 1
// EXPECT-RE: unreferenced object 0x[0-9a-f]{16} \(size 72\):
// NOT: (size 48)
// NOT: could not be stopped
// COUNT: 20 BUG: memory leak
// STDOUT: checks that found the lost object alone: 20 of 20
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>

#include "leak_test.h"

LSAN_API int __lsan_do_recoverable_leak_check(void);

static pthread_t thread;
static pthread_attr_t attr;

LEAK_TEST void lose(void)
{
	char *p = malloc(72);
	HIDE(p);
	memset(p, 1, 72);
	HIDE(p);
}

LEAK_TEST void *holds(void *arg)
{
	HIDE(arg);
	free(arg);
	return NULL;
}

LEAK_TEST void start(void)
{
	char *p = malloc(48);
	HIDE(p);
	memset(p, 2, 48);
	pthread_create(&thread, &attr, holds, p);
}

int main(void)
{
	cpu_set_t one;
	CPU_ZERO(&one);
	CPU_SET(sched_getcpu() < 0 ? 0 : sched_getcpu(), &one);
	sched_setaffinity(0, sizeof(one), &one);
	pthread_attr_init(&attr);
	pthread_attr_setaffinity_np(&attr, sizeof(one), &one);
	int alone = 0;
	for (int i = 0; i < 20; i++) {
		run_deep(lose);
		run_deep(start);
		clear_stack();
		alone += __lsan_do_recoverable_leak_check() == 1;
		pthread_join(thread, NULL);
	}
	printf("checks that found the lost object alone: %d of 20\n", alone);
	return 0;
}
