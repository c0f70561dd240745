// PRELOAD-AFTER: libmimalloc.so.2
// RUN-ALSO: kfence.sample_rate=1
// STDOUT: mimalloc serves what KFENCE does not guard
// NOT: BUG: KFENCE
// NOT: ukasan:
#define _GNU_SOURCE
#include <dlfcn.h>
#include <malloc.h>

#include "_other_malloc.h"

/* LD_PRELOAD="libukasan.so libmimalloc.so.2", the order ukasan asks for
 * when another allocator is preloaded: no complaint, and every allocation
 * ukasan does not guard comes from mimalloc, the next allocator in the
 * search order, not from glibc. The program is not linked with mimalloc:
 * it finds mi_is_in_heap_region at run time. */
#define N 400

int main(void)
{
	static void *ps[N];
	int (*in_heap)(const void *) =
	    (int (*)(const void *))dlsym(RTLD_DEFAULT, "mi_is_in_heap_region");
	CHECK(in_heap);
	int sampled = every_allocation_sampled();
	size_t unguarded = 0;
	step("malloc, calloc, realloc, posix_memalign");
	for (int i = 0; i < N; i++) {
		size_t n = 16 + (size_t)i * 5;
		void *p = NULL;
		switch (i % 4) {
		case 0:
			p = malloc(n);
			break;
		case 1:
			p = calloc(1, n);
			break;
		case 2:
			p = realloc(NULL, n);
			break;
		case 3:
			CHECK(posix_memalign(&p, 64, n) == 0);
			break;
		}
		CHECK(p);
		CHECK(guarded(p) != in_heap(p));
		CHECK(malloc_usable_size(p) >= n);
		fill(p, n, (unsigned)i);
		ps[i] = p;
		unguarded += !guarded(p);
	}
	printf("%zu of %d guarded\n", N - unguarded, N);
	if (sampled)
		CHECK(unguarded < N);
	step("realloc and free");
	for (int i = 0; i < N; i++) {
		size_t n = 16 + (size_t)i * 5;
		void *p = realloc(ps[i], n * 2);
		CHECK(p && intact(p, n, (unsigned)i));
		CHECK(guarded(p) != in_heap(p));
		free(p);
	}
	printf("mimalloc serves what KFENCE does not guard\n");
	return 0;
}
