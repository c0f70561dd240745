// RUN-WITH: none
// REPEAT: 6
// STDOUT: depot: 8 threads made it at once, 8000 stacks kept and found
/* The stack depot (src/stack/stack.c, compiled in here with the platform
 * below it stubbed, and platform/mem.c's plain copies) made by several
 * threads at once. Each thread that
 * finds no depot reserves one and all but one give theirs back; a thread
 * must never use a depot, or a table, that another has given back. The
 * reservation here waits 20 ms, so all eight threads are in it together
 * (in a program this happens rarely: two threads saving their first stack
 * at the same moment, as in stress/fork.c's children under
 * kfence.burst). Before the fix the threads read a table pointer the
 * losers wrote beside the depot, and died of SIGSEGV on a loser's
 * unmapped table. */
#define _GNU_SOURCE
#include "../../src/platform/mem.c"
#include "../../src/stack/stack.c"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>

void *os_reserve(size_t size, enum os_prot prot)
{
	(void)prot;
	void *p = mmap(NULL, size, PROT_READ | PROT_WRITE,
	               MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
	nanosleep(&(struct timespec){0, 20 * 1000 * 1000}, NULL);
	return p == MAP_FAILED ? NULL : p;
}

void os_release(void *addr, size_t size)
{
	munmap(addr, size);
}

/* Not reached by the depot. */
int os_thread_stack(uintptr_t sp, uintptr_t *lo, uintptr_t *hi)
{
	(void)sp, (void)lo, (void)hi;
	return -1;
}
int signals_guarded(void (*fn)(void *arg), void *arg, uintptr_t *fault)
{
	(void)fault;
	fn(arg);
	return 0;
}
int unwind_fast(uintptr_t *pcs, int max, int skip)
{
	(void)pcs, (void)max, (void)skip;
	return 0;
}
void unwind_cache_flush(void)
{
}
int unwind_anywhere(uintptr_t *pcs, int max, uintptr_t hi)
{
	(void)pcs, (void)max, (void)hi;
	return 0;
}
int unwind_from_regs(const uintptr_t regs[4], int exact, uintptr_t hi, uintptr_t *pcs, int max)
{
	(void)regs, (void)exact, (void)hi, (void)pcs, (void)max;
	return 0;
}
void cfi_rule(uintptr_t q, struct rule *r, int *cacheable)
{
	(void)q, (void)r, (void)cacheable;
}

#define THREADS 8
#define STACKS  1000

static pthread_barrier_t start;

static void *saver(void *arg)
{
	uintptr_t t = (uintptr_t)arg;
	depot_handle_t h[STACKS];
	pthread_barrier_wait(&start);
	for (uintptr_t i = 0; i < STACKS; i++) {
		uintptr_t pcs[3] = {0x1000 + t, 0x2000 + i, 0x3000 + t * i};
		h[i] = depot_save(pcs, 3);
		if (!h[i]) {
			printf("thread %lu: stack %lu not saved\n", (unsigned long)t,
			       (unsigned long)i);
			exit(1);
		}
	}
	for (uintptr_t i = 0; i < STACKS; i++) {
		const uintptr_t *pcs;
		if (depot_fetch(h[i], &pcs) != 3 || pcs[0] != 0x1000 + t || pcs[1] != 0x2000 + i ||
		    pcs[2] != 0x3000 + t * i) {
			printf("thread %lu: stack %lu came back wrong\n", (unsigned long)t,
			       (unsigned long)i);
			exit(1);
		}
	}
	return NULL;
}

int main(void)
{
	pthread_t t[THREADS];
	pthread_barrier_init(&start, NULL, THREADS);
	for (uintptr_t i = 0; i < THREADS; i++)
		if (pthread_create(&t[i], NULL, saver, (void *)i))
			return 2;
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	printf("depot: %d threads made it at once, %d stacks kept and found\n", THREADS,
	       THREADS * STACKS);
	return 0;
}
