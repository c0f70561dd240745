// MODE: generic
// RUN: kasan_multi_shot
// Use after free across threads (the kernel's rcu_uaf and workqueue_uaf
// free in another context too): the main thread allocates, a second thread
// frees, a third reads. The report is by the reading task, and the
// allocation and free stacks name their own tasks' ids and functions.
// EXPECT: BUG: KASAN: slab-use-after-free in reader+0x
// EXPECT-RE: ^Allocated by task \d+:\n kasan_thread_uaf\+0x[0-9a-f]+/0x[0-9a-f]+ tests/generic/kasan_thread_uaf.c:\d+$
// EXPECT-RE: ^Freed by task \d+:\n freer\+0x[0-9a-f]+/0x[0-9a-f]+ tests/generic/kasan_thread_uaf.c:\d+$
// EXPECT: freed 100-byte region
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

#include <pthread.h>

static char *object;
static int alloc_tid, alloc_line, free_tid, free_line;

KASAN_TEST static void *freer(void *arg)
{
	(void)arg;
	free_tid = gettid();
	free(object); free_line = __LINE__;
	return NULL;
}

KASAN_TEST static void *reader(void *arg)
{
	char *p = object;

	(void)arg;
	KASAN_EXPECT_FAIL(kasan_int_result = ((volatile char *)p)[99], .type = "slab-use-after-free", .rw = "Read", .size = 1, .addr = p + 99, .obj = p, .obj_size = 100, .freed = 1, .alloc_line = alloc_line, .free_line = free_line, .alloc_tid = alloc_tid, .free_tid = free_tid);
	return NULL;
}

KASAN_TEST void kasan_thread_uaf(void)
{
	pthread_t t;

	alloc_tid = gettid();
	object = malloc(100); alloc_line = __LINE__;
	pthread_create(&t, NULL, freer, NULL);
	pthread_join(t, NULL);
	pthread_create(&t, NULL, reader, NULL);
	pthread_join(t, NULL);
	if (free_tid == alloc_tid)
		kasan_test_fail("the freeing thread has the main thread's id");
}

int main(void)
{
	kasan_thread_uaf();
	return 0;
}
