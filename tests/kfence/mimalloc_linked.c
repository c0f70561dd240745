// RUN-ALSO: kfence.sample_rate=1
// CFLAGS: -lmimalloc
// STDOUT: mimalloc serves what KFENCE does not guard
// NOT: BUG: KFENCE
// NOT: ukasan:
#include <malloc.h>
#include <mimalloc.h>

#include "_other_malloc.h"

/* A program linked with mimalloc: malloc and free are mimalloc's, and so
 * are mi_malloc, mi_free and the rest. Under the preload, what ukasan does
 * not guard must come from mimalloc's heap, and any pointer, guarded or
 * not, from malloc or from mi_malloc, may go to any of them:
 * mi_usable_size, mi_realloc, mi_expand, mi_free, mi_free_size. */
#define N 400

static void sizes_ok(void *p, size_t n)
{
	CHECK(malloc_usable_size(p) >= n);
	CHECK(mi_usable_size(p) >= n);
}

/* Where p comes from: guarded by KFENCE, or mimalloc's; never another. */
static void source_ok(void *p)
{
	CHECK(guarded(p) != mi_is_in_heap_region(p));
}

static void release(void *p, size_t n, unsigned seed, int how)
{
	void *q;
	switch (how) {
	case 0:
		free(p);
		break;
	case 1:
		mi_free(p);
		break;
	case 2:
		mi_free_size(p, n);
		break;
	case 3:
		p = mi_realloc(p, n + 3000);
		CHECK(p && intact(p, n, seed));
		sizes_ok(p, n + 3000);
		source_ok(p);
		p = realloc(p, n / 2 + 1);
		CHECK(p && intact(p, n / 2 + 1, seed));
		sizes_ok(p, n / 2 + 1);
		mi_free(p);
		break;
	case 4:
		p = realloc(p, n + 2000);
		CHECK(p && intact(p, n, seed));
		sizes_ok(p, n + 2000);
		source_ok(p);
		free(p);
		break;
	case 5:
		/* In place or not at all. */
		q = mi_expand(p, n + 8);
		CHECK(q == NULL || q == p);
		CHECK(intact(p, n, seed));
		sizes_ok(p, q ? n + 8 : n);
		mi_free(p);
		break;
	}
}

#define WAYS 6

int main(void)
{
	static void *ps[N];
	int sampled = every_allocation_sampled();
	size_t n = 1000, unguarded = 0;

	step("malloc: what is not guarded comes from mimalloc");
	for (int i = 0; i < N; i++) {
		ps[i] = malloc(n);
		CHECK(ps[i]);
		source_ok(ps[i]);
		unguarded += !guarded(ps[i]);
	}
	printf("%zu of %d guarded\n", N - unguarded, N);
	if (sampled)
		CHECK(unguarded < N);

	step("pointers from malloc, given back every way");
	for (int i = 0; i < N; i++) {
		sizes_ok(ps[i], n);
		fill(ps[i], n, (unsigned)i);
		release(ps[i], n, (unsigned)i, i % WAYS);
	}

	step("pointers from mi_malloc, mi_zalloc, mi_malloc_aligned, given back every way");
	for (int i = 0; i < N; i++) {
		size_t m = 24 + (size_t)i * 7;
		char *p = i % 3 == 0 ? mi_malloc(m) : i % 3 == 1 ? mi_zalloc(m) : mi_malloc_aligned(m, 64);
		CHECK(p);
		if (i % 3 == 1)
			for (size_t k = 0; k < m; k++)
				CHECK(p[k] == 0);
		if (i % 3 == 2)
			CHECK((uintptr_t)p % 64 == 0);
		sizes_ok(p, m);
		fill(p, m, (unsigned)i);
		release(p, m, (unsigned)i, (i / 3) % WAYS);
	}

	step("calloc, posix_memalign, aligned_alloc, memalign, valloc");
	for (int i = 0; i < N; i++) {
		size_t m = 8 + (size_t)i * 3;
		/* Not 256: mimalloc 2.0.9 alone gives 128-aligned blocks
		 * for memalign(256, 512) and the like. */
		void *p = family_alloc(i, m, 64);
		source_ok(p);
		sizes_ok(p, m);
		fill(p, m, (unsigned)i);
		release(p, m, (unsigned)i, i % WAYS);
	}
	printf("mimalloc serves what KFENCE does not guard\n");
	return 0;
}
