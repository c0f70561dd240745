// MODE: generic
// TAG-MODES: sw_tags hw_tags
// A leak in a thread that has exited: its stack is gone, and the object
// with it, while another thread's object stays reachable from the live
// thread's stack.
// RUN: kfence.sample_interval=0
// STATUS: 1
// EXPECT-RE: unreferenced object 0x[0-9a-f]{16} \(size 72\):(\n.*){5,7}\n    \[<[0-9a-f]+>\] thread_leaks\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kmemleak/leak_thread.c:25
// EXPECT: ukasan: kmemleak: 1 new suspected memory leak (72 bytes)
// COUNT: 1 BUG: memory leak
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "leak_test.h"

LSAN_API int __lsan_do_recoverable_leak_check(void);

static pthread_mutex_t m = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t c = PTHREAD_COND_INITIALIZER;
static int ready, done;

LEAK_TEST void thread_leaks(void)
{
	char *p = malloc(72);
	HIDE(p);
	memset(p, 1, 72);
	HIDE(p);
}

/* Deep: the next thread may get this stack from glibc's cache. */
static void *leaking_thread(void *arg)
{
	run_deep(thread_leaks);
	return arg;
}

LEAK_TEST void *thread_holds(void *arg)
{
	char *volatile held = malloc(88); /* on this live thread's stack */
	held[0] = 1;
	pthread_mutex_lock(&m);
	ready = 1;
	pthread_cond_broadcast(&c);
	while (!done)
		pthread_cond_wait(&c, &m);
	pthread_mutex_unlock(&m);
	free(held);
	return arg;
}

static pthread_t holder;

static void stop_holder(void)
{
	pthread_mutex_lock(&m);
	done = 1;
	pthread_cond_broadcast(&c);
	pthread_mutex_unlock(&m);
	pthread_join(holder, NULL);
}

int main(void)
{
	pthread_t t;
	pthread_create(&t, NULL, leaking_thread, NULL);
	pthread_join(t, NULL);
	pthread_create(&holder, NULL, thread_holds, NULL);
	pthread_mutex_lock(&m);
	while (!ready)
		pthread_cond_wait(&c, &m);
	pthread_mutex_unlock(&m);
	clear_stack();
	/* The holder's object is checked while it waits: it must not be a leak. */
	int r = __lsan_do_recoverable_leak_check();
	stop_holder();
	return r ? 0 : 3;
}
