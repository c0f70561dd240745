// RUN: kfence.large_objects=0
// RUN-ALSO: kfence.sample_rate=1 kfence.large_objects=0
// STDOUT: a thread's first allocation has an arena of its own
// NOT: BUG: KFENCE
// NOT: ukasan:
#include <pthread.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include "kfence_test.h"

/* glibc sets its malloc up at the first call, without a lock, giving the
 * calling thread the main arena without counting it as a user: it takes
 * for granted that the first call comes from the main thread before there
 * is any other (the main thread's pthread_create allocates). Under the
 * preload, when KFENCE takes every allocation the main thread makes
 * (with sample_rate=1; with the default interval, in a program whose only
 * allocation before its first thread is the process's first, when the
 * first interval's random draw picks that one), glibc's malloc is first called from another thread, or
 * from several at once: two threads then both take the main arena
 * uncounted, and the second to exit aborts in glibc ("malloc assertion
 * failure in __malloc_arena_thread_freeres: a->attached_threads > 0"; the
 * stress test stress/longjmp.c did, one run in 25). That race is rare; its
 * cause is certain: the first thread's first unguarded allocation comes
 * from the main arena, the brk heap, where in a program without ukasan it
 * gets an arena of its own. So ukasan must have glibc's malloc set up on
 * the main thread before the program can start a thread. Nothing here
 * calls glibc's malloc before the thread: no stdio until the end. */
extern char end; /* the brk heap starts after the program's data */

static void *worker(void *arg)
{
	/* Bigger than a page: never KFENCE's without large slots. */
	char *p = malloc(5 * 4096);
	memset(p, 1, 5 * 4096);
	*(char **)arg = p;
	free(p);
	return NULL;
}

int main(void)
{
	char *p = NULL;
	pthread_t t;
	if (pthread_create(&t, NULL, worker, &p) != 0)
		return 90;
	pthread_join(t, NULL);
	char *brk_top = sbrk(0);
	if (!p || (ukasan_is_kfence_address && ukasan_is_kfence_address(p)))
		return 91;
	if (p >= &end && p < brk_top) {
		printf("the thread's first allocation %p came from the main arena [%p, %p)\n",
		       (void *)p, (void *)&end, (void *)brk_top);
		return 1;
	}
	printf("a thread's first allocation has an arena of its own\n");
	return 0;
}
