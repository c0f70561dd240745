// RUN: kfence.sample_rate=1
// STDOUT: main thread stack holds main's frame
// EXPECT: BUG: KFENCE: use-after-free read in main+0x
// EXPECT-RE: ^allocated by task \d+ on cpu \d+ at \d+\.\d{6}s:\n main\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kfence/getattr_main_thread.c:53$
// COUNT: 1 BUG: KFENCE:
// EXPECT-RE: ^ukasan: 1 report in this run \(pid \d+\)$
// COUNT: 1 ukasan:
#define _GNU_SOURCE
#include <pthread.h>
#include <stdint.h>

#include "kfence_test.h"

/* What Rust's runtime does first on the main thread: ask for its own stack.
 * glibc's pthread_getattr_np takes the thread's lock, then allocates (fopen
 * of /proc/self/maps for the main thread, the affinity mask for any):
 * under sample_rate=1 that allocation is guarded, and the allocation stack
 * must be taken without asking pthread_getattr_np again, which would wait
 * for the lock this thread holds. Nothing here allocates before the call. */
static int stack_holds(pthread_attr_t *attr, const void *p, size_t *size)
{
	void *addr;
	if (pthread_attr_getstack(attr, &addr, size) != 0)
		return 0;
	return (uintptr_t)p >= (uintptr_t)addr && (uintptr_t)p < (uintptr_t)addr + *size;
}

int main(void)
{
	int local = 0;
	pthread_attr_t attr;
	size_t size = 0;
	if (pthread_getattr_np(pthread_self(), &attr) != 0)
		return 90;
	int ok = stack_holds(&attr, &local, &size);
	pthread_attr_destroy(&attr);
	if (!ok || size < 4096)
		return 91;
	/* Again, now that the first call's allocations are done. */
	if (pthread_getattr_np(pthread_self(), &attr) != 0)
		return 92;
	ok = stack_holds(&attr, &local, &size);
	pthread_attr_destroy(&attr);
	if (!ok)
		return 93;
	printf("main thread stack holds main's frame\n");
	fflush(stdout);

	/* KFENCE still guards the main thread's allocations, and their stacks
	 * are whole: the allocation is reported at its line in main. */
	if (!ukasan_is_kfence_address)
		return 94;
	char *p = malloc(24);
	if (!ukasan_is_kfence_address(p))
		return 95;
	expect("Use-after-free read at %p (in kfence-#", (void *)(p + 3));
	free(p);
	char c = ((volatile char *)p)[3];
	(void)c;
	return 0;
}
