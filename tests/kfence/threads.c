// RUN: kfence.sample_rate=1
// EXPECT: BUG: KFENCE: use-after-free write in worker+0x
// COUNT: 1 BUG: KFENCE:
#include <pthread.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kfence_test.h"

/* Four threads churn guarded and unguarded allocations at once; then one of
 * them writes to an object after freeing it. Exactly one report, naming
 * that thread as the allocating and freeing task. The others stop churning
 * first: on a busy machine the writer may sleep between its free and its
 * write long enough for them to cycle through the whole pool and reuse the
 * slot, and the report would rightly name the slot's new owner. */
static pthread_barrier_t churned;

static void *worker(void *arg)
{
	long id = (long)arg;
	for (int i = 0; i < 20000; i++) {
		size_t n = 1 + (size_t)(i * 7 + id) % 700;
		char *p = malloc(n);
		memset(p, (int)id, n);
		char *q = realloc(p, n + 10);
		free(q);
	}
	pthread_barrier_wait(&churned);
	if (id == 2) {
		char *p = NULL;
		while (!p) {
			p = malloc(128);
			if (!ukasan_is_kfence_address(p)) {
				free(p);
				p = NULL;
			}
		}
		long tid = syscall(SYS_gettid);
		expect("Use-after-free write at %p (in kfence-#", (void *)(p + 8));
		expect("allocated by task %ld on cpu", tid);
		expect("freed by task %ld on cpu", tid);
		free(p);
		((volatile char *)p)[8] = 1;
	}
	return NULL;
}

int main(void)
{
	pthread_t t[4];
	pthread_barrier_init(&churned, NULL, 4);
	for (long i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, worker, (void *)i);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	return 0;
}
