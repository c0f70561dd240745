// RUN-ALSO: kfence.sample_rate=1 kmemleak=off
// (kmemleak off: with every allocation sampled, the leak check at the
// preload's defaults rightly reports gperftools' own leak, the default
// MallocExtension that MallocExtension::Register allocates in its
// constructor and drops for tcmalloc's; its 8 bytes are its vtable.)
// CFLAGS: -ltcmalloc
// STDOUT: tcmalloc serves what KFENCE does not guard
// NOT: BUG: KFENCE
// NOT: ukasan:
#include <gperftools/malloc_extension_c.h>
#include <gperftools/tcmalloc.h>
#include <malloc.h>

#include <new>

#include "_other_malloc.h"

/* A program linked with gperftools' tcmalloc: malloc, free and operator
 * new are tcmalloc's, and the tc_* names are the same functions. Under the
 * preload, what ukasan does not guard must come from tcmalloc (its count of
 * the bytes the program holds grows by them), and any pointer, guarded or
 * not, from malloc, new or tc_malloc, may go to any of them: tc_malloc_size,
 * tc_realloc, tc_free, tc_free_sized, delete. */
#define N 400

static size_t tc_allocated(void)
{
	size_t v = 0;
	CHECK(MallocExtension_GetNumericProperty("generic.current_allocated_bytes", &v));
	return v;
}

static void sizes_ok(void *p, size_t n)
{
	CHECK(malloc_usable_size(p) >= n);
	CHECK(tc_malloc_size(p) >= n);
}

static void release(void *p, size_t n, unsigned seed, int how)
{
	switch (how) {
	case 0:
		free(p);
		break;
	case 1:
		tc_free(p);
		break;
	case 2:
		tc_free_sized(p, n);
		break;
	case 3:
		p = tc_realloc(p, n + 3000);
		CHECK(p && intact(p, n, seed));
		sizes_ok(p, n + 3000);
		p = realloc(p, n / 2 + 1);
		CHECK(p && intact(p, n / 2 + 1, seed));
		sizes_ok(p, n / 2 + 1);
		tc_free(p);
		break;
	case 4:
		p = realloc(p, n + 2000);
		CHECK(p && intact(p, n, seed));
		sizes_ok(p, n + 2000);
		free(p);
		break;
	case 5:
		tc_cfree(p);
		break;
	}
}

#define WAYS 6

int main()
{
	static void *ps[N];
	int sampled = every_allocation_sampled();
	size_t n = 1000, unguarded = 0;

	step("malloc: what is not guarded comes from tcmalloc");
	size_t before = tc_allocated();
	for (int i = 0; i < N; i++) {
		ps[i] = malloc(n);
		CHECK(ps[i]);
		unguarded += !guarded(ps[i]);
	}
	size_t after = tc_allocated();
	printf("malloc: %zu of %d guarded\n", N - unguarded, N);
	CHECK(after >= before && after - before >= unguarded * n);
	if (sampled)
		CHECK(unguarded < N);

	step("pointers from malloc, given back every way");
	for (int i = 0; i < N; i++) {
		sizes_ok(ps[i], n);
		fill(ps[i], n, (unsigned)i);
		release(ps[i], n, (unsigned)i, i % WAYS);
	}

	step("new[]: what is not guarded comes from tcmalloc");
	unguarded = 0;
	before = tc_allocated();
	for (int i = 0; i < N; i++) {
		ps[i] = new char[n];
		unguarded += !guarded(ps[i]);
	}
	after = tc_allocated();
	printf("new[]: %zu of %d guarded\n", N - unguarded, N);
	CHECK(after >= before && after - before >= unguarded * n);
	if (sampled)
		CHECK(unguarded < N);

	step("pointers from new, given back with delete and tc_*");
	for (int i = 0; i < N; i++) {
		char *p = static_cast<char *>(ps[i]);
		sizes_ok(p, n);
		fill(p, n, (unsigned)i);
		switch (i % 4) {
		case 0:
			delete[] p;
			break;
		case 1:
			tc_deletearray(p);
			break;
		case 2:
			tc_deletearray_sized(p, n);
			break;
		case 3:
			::operator delete[](p, n);
			break;
		}
	}
	for (int i = 0; i < N; i++) {
		long *p = new long(i);
		sizes_ok(p, sizeof(long));
		if (i % 2)
			delete p;
		else
			tc_delete(p);
		char *q = new (std::align_val_t(64)) char[100 + i];
		CHECK((uintptr_t)q % 64 == 0);
		sizes_ok(q, 100 + (size_t)i);
		::operator delete[](q, std::align_val_t(64));
	}

	step("pointers from tc_malloc, tc_calloc, tc_memalign, given back every way");
	for (int i = 0; i < N; i++) {
		size_t m = 24 + (size_t)i * 7;
		char *p = static_cast<char *>(i % 3 == 0   ? tc_malloc(m)
		                              : i % 3 == 1 ? tc_calloc(1, m)
		                                           : tc_memalign(64, m));
		CHECK(p);
		if (i % 3 == 1)
			for (size_t k = 0; k < m; k++)
				CHECK(p[k] == 0);
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
	printf("tcmalloc serves what KFENCE does not guard\n");
	return 0;
}
