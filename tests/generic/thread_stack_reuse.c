// MODE: generic
// RUN: kasan.stack_use_after_return=off
// (Off: the subject is the threads' real stacks.)
// A thread cancelled deep in instrumented frames leaves their stack
// redzones poisoned; glibc hands its stack to the next thread, whose
// uninstrumented frame fills a big local array there and passes it to
// instrumented code. Each thread starts with a clean stack shadow, so there
// is no report (there was one, a false stack-out-of-bounds, before).
// STDOUT: second thread on the first one's stack: yes
// STDOUT: sum -8192
// NOT: BUG: KASAN
#include "kasan_test.h"
#include "stale_stack_test.h"

#include <pthread.h>

static volatile uintptr_t first_sp;

__attribute__((noinline)) static int deep(int n)
{
	char buf[256];
	memset(buf, n, sizeof buf);
	if (n > 0)
		return deep(n - 1) + buf[n];
	first_sp = (uintptr_t)buf;
	for (;;)
		pause(); /* cancelled here, 21 poisoned frames up */
}

static void *victim(void *arg)
{
	(void)arg;
	return (void *)(long)deep(20);
}

static void *second(void *arg)
{
	(void)arg;
	return (void *)(long)uninstrumented_frame();
}

int main(void)
{
	pthread_t t;
	void *r;
	pthread_create(&t, NULL, victim, NULL);
	while (!first_sp)
		usleep(1000);
	pthread_cancel(t);
	pthread_join(t, NULL);
	pthread_create(&t, NULL, second, NULL);
	pthread_join(t, &r);
	printf("second thread on the first one's stack: %s\n",
	       first_sp >= stale_lo && first_sp < stale_hi ? "yes" : "no");
	printf("sum %ld\n", (long)r);
	return 0;
}
