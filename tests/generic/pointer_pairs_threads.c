// MODE: generic
// CFLAGS: -fsanitize=pointer-compare,pointer-subtract -pthread
// RUN: kasan.detect_invalid_pointer_pairs=1 kasan_multi_shot kasan.stack_use_after_return=off
// ASan's invalid-pointer-pairs-threads: a local of main subtracted from a
// thread's local is an invalid pair (they cannot be in one object); two
// locals of two other threads are not reported (ASan does not either:
// from here the two could be one variable of another thread's frame), nor
// two pointers into one variable of another thread, far apart.
// EXPECT: BUG: KASAN: invalid-pointer-pair in main+0x
// EXPECT-RE: main\+0x[0-9a-f]+/0x[0-9a-f]+ tests/generic/pointer_pairs_threads.c:49
// COUNT: 1 BUG: KASAN:
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static char *pointers[2];
static char *arrays[2];
static pthread_barrier_t bar;
volatile long pair_result;

static void *thread_main(void *n)
{
	char local;
	char array[8192];
	unsigned long id = (unsigned long)n;
	pointers[id] = &local;
	arrays[id] = array;
	__asm__ volatile("" : : "r"(&local), "r"(array) : "memory");
	pthread_barrier_wait(&bar);
	pthread_barrier_wait(&bar);
	return NULL;
}

int main(void)
{
	pthread_t threads[2];
	pthread_barrier_init(&bar, NULL, 3);
	pthread_create(&threads[0], 0, thread_main, (void *)0);
	pthread_create(&threads[1], 0, thread_main, (void *)1);
	pthread_barrier_wait(&bar);

	char *volatile p0 = pointers[0], *volatile p1 = pointers[1];
	char *volatile a0 = arrays[0];
	pair_result = p0 - p1;                 /* two other threads: not reported */
	pair_result = (a0 + 8000) - (a0 + 10); /* one variable of another thread */

	char local;
	char *volatile parent_pointer = &local;
	pair_result = parent_pointer - p0; /* main's local against a thread's */

	pthread_barrier_wait(&bar);
	pthread_join(threads[0], 0);
	pthread_join(threads[1], 0);
	pthread_barrier_destroy(&bar);
	return 0;
}
