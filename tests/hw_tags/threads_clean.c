// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kfence.sample_interval=0
// NOT: BUG: KASAN
// NOT: BUG: KFENCE
// STDOUT: ok 8 threads
#include "hw_tags/hw_tags_test.h"

#include <malloc.h>
#include <pthread.h>

#define THREADS 8
#define ROUNDS  20000

/* Eight threads allocating, writing, passing objects to each other and
 * freeing them: no false report, no lost or torn tags. Enough rounds that
 * slabs and chunks are carved while other threads allocate. */
static char *volatile slots[64];

static void *worker(void *arg)
{
	unsigned seed = (unsigned)(uintptr_t)arg;
	for (int i = 0; i < ROUNDS; i++) {
		seed = seed * 1103515245 + 12345;
		size_t n = 4 + (seed >> 8) % 600; /* m / 2 and m - 1 past the 2-byte size */
		char *p = malloc(n);
		/* Tagged before the first use: a fresh slab's memory too. */
		if (hw_ptr_tag(p) == 0 || hw_mem_tag(p) != hw_ptr_tag(p))
			return (void *)4;
		memset(p, (int)n, n);
		*(uint16_t *)p = (uint16_t)n; /* for the thread that frees it */
		if (hw_ptr_tag(p) == 0 || hw_mem_tag(p + n - 1) != hw_ptr_tag(p))
			return (void *)1;
		/* Swap with a shared slot: objects are freed by other threads. */
		char *old = __atomic_exchange_n(&slots[(seed >> 4) & 63], p, __ATOMIC_ACQ_REL);
		if (old) {
			size_t m = *(uint16_t *)old;
			if (malloc_usable_size(old) < m)
				return (void *)2;
			if (old[2] != (char)m || old[m / 2] != (char)m || old[m - 1] != (char)m)
				return (void *)3;
			free(old);
		}
	}
	return NULL;
}

int main(void)
{
	pthread_t t[THREADS];
	for (long i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, worker, (void *)(i + 1));
	int bad = 0;
	for (int i = 0; i < THREADS; i++) {
		void *r;
		pthread_join(t[i], &r);
		bad |= r != NULL;
	}
	for (int i = 0; i < 64; i++)
		free(slots[i]);
	HW_CHECK(!bad);
	printf("ok %d threads\n", THREADS);
	return 0;
}
