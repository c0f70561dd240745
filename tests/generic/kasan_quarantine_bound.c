// MODE: generic
// VARIANTS: gcc clang
// RUN: kasan.quarantine_size=32M kasan.stats=1
// kasan.quarantine_size bounds all the quarantine holds, as the kernel's
// and ASan's: the global FIFO leaves room for the threads' unfinished
// batches and for the large objects' quarantine, which were held beside it
// (32 MiB took 33.4 here: a batch and the large objects' 1/64 per
// lane on top). Four threads free small and large objects, then the main
// thread does; the quarantine at exit is at most 32768 kB.
// EXPECT: ukasan: kasan statistics of pid
// EXPECT-RE: ^quarantine: +\d+ objects, ([0-9]{1,4}|[12][0-9]{4}|3[01][0-9]{3}|32[0-6][0-9]{2}|327[0-5][0-9]|3276[0-8]) kB$
// NOT: BUG: KASAN
#include <pthread.h>
#include <stdlib.h>

static void *churn(void *arg)
{
	for (int i = 0; i < 40000; i++) {
		char *volatile p = malloc(200);
		p[0] = 1;
		free(p);
		if (i % 32 == 0) {
			char *volatile q = malloc(16384);
			q[0] = 1;
			free(q);
		}
	}
	return arg;
}

int main(void)
{
	pthread_t t[4];
	for (int i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, churn, NULL);
	for (int i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	churn(NULL);
	return 0;
}
