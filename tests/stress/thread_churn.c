// RUN: kfence.sample_rate=1
// RUN-ALSO: kfence.sample_interval=1 kfence.burst=32
// REPEAT: 20
// STDOUT: thread churn: 2000 threads, 1000 detached, all done
// NOT: BUG: KFENCE
// NOT: ukasan:
#include "_stress.h"

#include <pthread.h>
#include <sched.h>

/* Thousands of short threads, joined and detached, each allocating from
 * its first instruction to its last, and freeing at exit through a
 * thread-specific-data destructor. Thread stacks and thread-local blocks
 * are reused by glibc as threads come and go: what ukasan keeps per
 * thread must start afresh in each. Objects outlive their threads: a
 * thread frees the object its predecessor left. */
#define JOINED   1000
#define DETACHED 1000
#define BATCH    8

static pthread_key_t key;
static int finished, first_guarded;
static pthread_mutex_t handoff_lock = PTHREAD_MUTEX_INITIALIZER;
static char *handoff;
static size_t handoff_size;
static unsigned handoff_tag;

static void at_exit_of_thread(void *p)
{
	CHECK(intact(p, 100, 0x5a));
	free(p);
}

static void *worker(void *arg)
{
	unsigned seed = (unsigned)(uintptr_t)arg * 2654435761u | 1;
	char *mine = malloc(100);
	CHECK(mine);
	if (guarded(mine))
		__atomic_add_fetch(&first_guarded, 1, __ATOMIC_RELAXED);
	fill(mine, 100, 0x5a);
	CHECK(pthread_setspecific(key, mine) == 0);
	churn(&seed, 4);
	/* Leave an object for another thread; free the one found. */
	size_t n = 1 + next_rand(&seed) % 1000;
	unsigned tag = next_rand(&seed);
	char *p = malloc(n);
	CHECK(p);
	fill(p, n, tag);
	pthread_mutex_lock(&handoff_lock);
	char *old = handoff;
	size_t old_n = handoff_size;
	unsigned old_tag = handoff_tag;
	handoff = p;
	handoff_size = n;
	handoff_tag = tag;
	pthread_mutex_unlock(&handoff_lock);
	if (old) {
		CHECK(intact(old, old_n, old_tag));
		free(old);
	}
	__atomic_add_fetch(&finished, 1, __ATOMIC_RELEASE);
	return NULL;
}

int main(void)
{
	CHECK(pthread_key_create(&key, at_exit_of_thread) == 0);
	pthread_attr_t detached;
	pthread_attr_init(&detached);
	pthread_attr_setdetachstate(&detached, PTHREAD_CREATE_DETACHED);
	long made = 0;
	for (int b = 0; b < JOINED / BATCH; b++) {
		pthread_t t[BATCH];
		for (int i = 0; i < BATCH; i++) {
			CHECK(pthread_create(&t[i], NULL, worker, (void *)++made) == 0);
			pthread_t d;
			CHECK(pthread_create(&d, &detached, worker, (void *)++made) == 0);
		}
		for (int i = 0; i < BATCH; i++)
			CHECK(pthread_join(t[i], NULL) == 0);
		/* Keep the detached ones from piling up. */
		while (__atomic_load_n(&finished, __ATOMIC_ACQUIRE) < (int)made - 4 * BATCH)
			sched_yield();
	}
	while (__atomic_load_n(&finished, __ATOMIC_ACQUIRE) < JOINED + DETACHED)
		sched_yield();
	pthread_mutex_lock(&handoff_lock);
	CHECK(handoff && intact(handoff, handoff_size, handoff_tag));
	free(handoff);
	pthread_mutex_unlock(&handoff_lock);
	fprintf(stderr, "%d first allocations guarded\n", first_guarded);
	/* Under sample_rate=1 a thread's first allocation is guarded, as
	 * long as the pool is not crowded (it is far from it here, but
	 * threads that are done may linger before they free theirs). */
	if (every_allocation_sampled())
		CHECK(first_guarded >= (JOINED + DETACHED) * 95 / 100);
	printf("thread churn: %d threads, %d detached, all done\n", JOINED + DETACHED, DETACHED);
	return 0;
}
