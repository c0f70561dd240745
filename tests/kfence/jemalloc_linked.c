// RUN-ALSO: kfence.sample_rate=1
// CFLAGS: -ljemalloc
// STDOUT: jemalloc serves what KFENCE does not guard
// NOT: BUG: KFENCE
// NOT: ukasan:
#include <jemalloc/jemalloc.h>
#include <malloc.h>

#include "_other_malloc.h"

/* A program linked with jemalloc (redis, for one): malloc, free and
 * malloc_usable_size are jemalloc's, so under the preload every pointer
 * ukasan does not guard must come from jemalloc and go back to it; and the
 * program may hand any pointer, guarded or not, from malloc or from
 * mallocx, to jemalloc's own entry points: sallocx, rallocx, xallocx,
 * dallocx, sdallocx. Before, malloc went to glibc and malloc_usable_size
 * to jemalloc, which crashed. Run with the default sampling and with every
 * allocation guarded while the pool lasts. */
#define N 400

static uint64_t thread_allocated(void)
{
	uint64_t v = 0;
	size_t len = sizeof(v);
	CHECK(mallctl("thread.allocated", &v, &len, NULL, 0) == 0);
	return v;
}

/* Size checks that hold for any live pointer of at least n bytes. */
static void sizes_ok(void *p, size_t n)
{
	CHECK(malloc_usable_size(p) >= n);
	CHECK(sallocx(p, 0) >= n);
}

/* Give back p (n bytes live, filled with seed) through one of the ways a
 * jemalloc program may, checking the data on the way. */
static void release(void *p, size_t n, unsigned seed, int how)
{
	size_t x;
	switch (how) {
	case 0:
		free(p);
		break;
	case 1:
		dallocx(p, 0);
		break;
	case 2:
		sdallocx(p, n, 0);
		break;
	case 3:
		p = rallocx(p, n + 3000, 0);
		CHECK(p && intact(p, n, seed));
		sizes_ok(p, n + 3000);
		dallocx(p, 0);
		break;
	case 4:
		x = xallocx(p, n + 100, 500, 0);
		CHECK(x >= n && x == sallocx(p, 0) && x <= malloc_usable_size(p));
		CHECK(intact(p, n, seed));
		sdallocx(p, x, 0);
		break;
	case 5:
		p = realloc(p, n + 2000);
		CHECK(p && intact(p, n, seed));
		sizes_ok(p, n + 2000);
		p = realloc(p, n / 2);
		CHECK(p && intact(p, n / 2, seed));
		sizes_ok(p, n / 2);
		free(p);
		break;
	}
}

#define WAYS 6

int main(void)
{
	static void *ps[N];
	int sampled = every_allocation_sampled();

	step("malloc: what is not guarded comes from jemalloc");
	size_t unguarded = 0, n = 1000;
	uint64_t before = thread_allocated();
	for (int i = 0; i < N; i++) {
		ps[i] = malloc(n);
		CHECK(ps[i]);
		unguarded += !guarded(ps[i]);
	}
	uint64_t after = thread_allocated();
	printf("%zu of %d guarded\n", N - unguarded, N);
	CHECK(after - before >= unguarded * n);
	if (sampled)
		CHECK(unguarded < N);
	CHECK(nallocx(n, 0) >= n);

	step("pointers from malloc, given back every way");
	for (int i = 0; i < N; i++) {
		sizes_ok(ps[i], n);
		fill(ps[i], n, (unsigned)i);
		release(ps[i], n, (unsigned)i, i % WAYS);
	}

	step("pointers from mallocx, given back every way");
	for (int i = 0; i < N; i++) {
		int flags = i % 3 == 0 ? MALLOCX_ZERO : i % 3 == 1 ? MALLOCX_ALIGN(64) : 0;
		size_t m = 24 + (size_t)i * 7;
		char *p = mallocx(m, flags);
		CHECK(p);
		if (flags == MALLOCX_ZERO)
			for (size_t k = 0; k < m; k++)
				CHECK(p[k] == 0);
		if (flags == MALLOCX_ALIGN(64))
			CHECK((uintptr_t)p % 64 == 0);
		sizes_ok(p, m);
		fill(p, m, (unsigned)i);
		release(p, m, (unsigned)i, (i / 3) % WAYS);
	}

	step("calloc, posix_memalign, aligned_alloc, memalign, valloc");
	for (int i = 0; i < N; i++) {
		size_t m = 8 + (size_t)i * 3;
		void *p = family_alloc(i, m, 256);
		sizes_ok(p, m);
		fill(p, m, (unsigned)i);
		release(p, m, (unsigned)i, i % WAYS);
	}
	printf("jemalloc serves what KFENCE does not guard\n");
	return 0;
}
