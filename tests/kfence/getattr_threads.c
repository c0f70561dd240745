// RUN: kfence.sample_rate=1
// RUN-ALSO: kfence.sample_interval=1 kfence.burst=16
// STDOUT: 40 rounds of 6 threads: every stack found
// NOT: BUG: KFENCE
// NOT: ukasan:
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>
#include <string.h>

#include "_alloc_test.h"
#include "kfence_test.h"

/* What the JVM does: every new thread asks for its own stack with
 * pthread_getattr_np, and threads ask about each other. glibc takes the
 * asked-about thread's lock, then allocates (the affinity mask): a guarded
 * allocation must take its stack without calling pthread_getattr_np on
 * the current thread, which could wait for a lock that this thread holds
 * (asking about itself) or that another thread holds while it waits for
 * ours (two threads asking about each other at once, both before their
 * first guarded allocation). Nothing allocates in a thread before its first
 * pthread_getattr_np. */
#define THREADS 6
#define ROUNDS  40

static pthread_barrier_t start, done;
static pthread_t ids[THREADS];
static void *locals[THREADS];
static int round_no;
static int failures;

static void *worker(void *arg)
{
	long id = (long)arg;
	int local = 0;
	int ok = 1;
	locals[id] = &local;
	if (round_no % 2 == 0) {
		/* Itself first. */
		ok &= stack_holds(pthread_self(), &local);
		pthread_barrier_wait(&start);
	} else {
		/* Its neighbour first, all threads at once. */
		pthread_barrier_wait(&start);
	}
	long peer = (id + 1) % THREADS;
	ok &= stack_holds(ids[peer], locals[peer]);
	ok &= stack_holds(pthread_self(), &local);
	for (int i = 0; i < 50; i++) {
		char *p = malloc(1 + (size_t)(i * 37 + id) % 300);
		memset(p, (int)id, 1 + (size_t)(i * 37 + id) % 300);
		free(p);
	}
	ok &= stack_holds(ids[peer], locals[peer]);
	pthread_barrier_wait(&done); /* the neighbour is alive until here */
	if (!ok)
		__atomic_add_fetch(&failures, 1, __ATOMIC_RELAXED);
	return NULL;
}

int main(void)
{
	int local = 0;
	if (!stack_holds(pthread_self(), &local))
		return 90;
	for (round_no = 0; round_no < ROUNDS; round_no++) {
		pthread_barrier_init(&start, NULL, THREADS + 1);
		pthread_barrier_init(&done, NULL, THREADS);
		for (long i = 0; i < THREADS; i++)
			if (pthread_create(&ids[i], NULL, worker, (void *)i) != 0)
				return 91;
		/* ids[] is complete before any thread reads its neighbour's. */
		pthread_barrier_wait(&start);
		for (int i = 0; i < THREADS; i++)
			pthread_join(ids[i], NULL);
		pthread_barrier_destroy(&start);
		pthread_barrier_destroy(&done);
		if (!stack_holds(pthread_self(), &local))
			return 92;
	}
	if (failures) {
		printf("%d threads did not find a stack\n", failures);
		return 93;
	}
	printf("%d rounds of %d threads: every stack found\n", ROUNDS, THREADS);
	return 0;
}
