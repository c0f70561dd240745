/* An allocation-rich program linked against another allocator, for
 * tests/real/check_real_software.py. Built three times: -DUSE_TCMALLOC
 * (-ltcmalloc), -DUSE_MIMALLOC (-lmimalloc), -DUSE_JEMALLOC (-ljemalloc),
 * with _alloc_user_new.cc for C++ new/delete.
 *
 * stdout: checksums of the workload, the same with or without ukasan and
 * whatever was sampled. stderr: one "alloc_user: phase NAME" line before
 * each phase (so a crash can be placed), then one line
 *   alloc_user: ALLOCATOR sampled=N owned=N foreign=N
 * counting the new objects that were KFENCE's (ukasan_is_kfence_address),
 * the linked allocator's, or neither. foreign must be 0: under the preload
 * an unsampled allocation must still come from the allocator the program
 * was linked with, not from glibc. Exit status 1 and an
 * "alloc_user: FAIL" line when the program finds wrong memory contents,
 * sizes or alignment. */
#define _GNU_SOURCE
#include <malloc.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ukasan.h"

#if defined(USE_TCMALLOC)
#include <gperftools/malloc_extension_c.h>
#include <gperftools/tcmalloc.h>
#define ALLOCATOR "tcmalloc"
#elif defined(USE_MIMALLOC)
#include <mimalloc.h>
#define ALLOCATOR "mimalloc"
#elif defined(USE_JEMALLOC)
#include <jemalloc/jemalloc.h>
#define ALLOCATOR "jemalloc"
#else
#error "build with -DUSE_TCMALLOC, -DUSE_MIMALLOC or -DUSE_JEMALLOC"
#endif

static unsigned long sampled, owned, foreign;
static char first_foreign[128];
static int failures;
static pthread_mutex_t count_lock = PTHREAD_MUTEX_INITIALIZER;

static void fail(const char *what, size_t a, size_t b)
{
	if (__atomic_fetch_add(&failures, 1, __ATOMIC_RELAXED) < 20)
		fprintf(stderr, "alloc_user: FAIL: %s (%zu, %zu)\n", what, a, b);
}

static void phase(const char *name)
{
	fprintf(stderr, "alloc_user: phase %s\n", name);
}

/* Ownership. jemalloc has no safe "is this mine" for a foreign pointer, but
 * counts the bytes each thread allocates: an allocation that did not move
 * that counter did not come from jemalloc. */
#if defined(USE_JEMALLOC)
static __thread uint64_t *allocatedp;
uint64_t alloc_mark(void)
{
	if (!allocatedp) {
		size_t sz = sizeof(allocatedp);
		if (mallctl("thread.allocatedp", &allocatedp, &sz, NULL, 0) != 0)
			return 0;
	}
	return *allocatedp;
}
static int is_owned(const void *p, uint64_t mark)
{
	(void)p;
	return allocatedp && *allocatedp != mark;
}
#else
uint64_t alloc_mark(void)
{
	return 0;
}
static int is_owned(const void *p, uint64_t mark)
{
	(void)mark;
#if defined(USE_TCMALLOC)
	return MallocExtension_GetOwnership(p) == MallocExtension_kOwned;
#else
	return mi_is_in_heap_region(p);
#endif
}
#endif

/* Called right after an allocation that returned p, with the mark taken
 * right before it. */
void classify(const void *p, uint64_t mark, const char *api, size_t size)
{
	int kfence = ukasan_is_kfence_address && ukasan_is_kfence_address(p);
	int mine = !kfence && is_owned(p, mark);
	pthread_mutex_lock(&count_lock);
	if (kfence) {
		sampled++;
	} else if (mine) {
		owned++;
	} else {
		if (!foreign++)
			snprintf(first_foreign, sizeof(first_foreign), "%s(%zu) = %p", api, size, p);
	}
	pthread_mutex_unlock(&count_lock);
}

static uint64_t rng = 88172645463325252ull;
static uint64_t next(uint64_t *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 7;
	*s ^= *s << 17;
	return *s;
}

static size_t pick_size(uint64_t *s)
{
	uint64_t r = next(s);
	switch (r % 8) {
	case 0:
		return 1 + r % 16;
	case 1:
	case 2:
	case 3:
		return 1 + (r >> 8) % 256;
	case 4:
	case 5:
		return 1 + (r >> 8) % 4096;
	case 6:
		return 4096 + (r >> 8) % 32768;
	default:
		return 65536 + (r >> 8) % (1 << 20);
	}
}

static void fill(unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		p[i] = (unsigned char)(seed * 131 + i * 7);
}

static int intact(const unsigned char *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		if (p[i] != (unsigned char)(seed * 131 + i * 7))
			return 0;
	return 1;
}

static uint64_t mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * 0x100000001b3ull;
}

struct slot {
	unsigned char *p;
	size_t size;
	unsigned seed;
};

#define SLOTS 512

/* The malloc family at random: allocate, reallocate (contents kept up to
 * the smaller size), free; calloc zeroed, aligned ones aligned. */
static uint64_t malloc_family(void)
{
	static struct slot s[SLOTS];
	uint64_t h = 1469598103934665603ull;
	for (int it = 0; it < 30000; it++) {
		uint64_t r = next(&rng);
		struct slot *sl = &s[r % SLOTS];
		size_t n = pick_size(&rng);
		if (sl->p) {
			if (!intact(sl->p, sl->size, sl->seed))
				fail("contents changed", sl->size, sl->seed);
			if (malloc_usable_size(sl->p) < sl->size)
				fail("malloc_usable_size too small", malloc_usable_size(sl->p), sl->size);
			if ((r >> 20) % 3 == 0) {
				uint64_t m = alloc_mark();
				unsigned char *q = realloc(sl->p, n);
				if (!q) {
					fail("realloc failed", n, 0);
					continue;
				}
				classify(q, m, "realloc", n);
				size_t keep = n < sl->size ? n : sl->size;
				if (!intact(q, keep, sl->seed))
					fail("realloc lost contents", keep, n);
				sl->p = q;
				sl->size = n;
				fill(q, n, sl->seed);
			} else {
				free(sl->p);
				sl->p = NULL;
			}
			h = mix(h, n);
			continue;
		}
		unsigned char *p = NULL;
		size_t align = 0;
		int zero = 0;
		const char *api;
		/* mimalloc 2.0.9 misaligns posix_memalign(256, 512) and the like,
		 * sizes a power-of-two multiple of an alignment of 256 or more,
		 * ukasan or not: not our business here. */
		if (n % 256 == 0)
			n++;
		uint64_t m = alloc_mark();
		switch ((r >> 12) % 7) {
		case 0:
		case 1:
			api = "malloc";
			p = malloc(n);
			break;
		case 2:
			api = "calloc";
			p = calloc(1 + n % 7, n / (1 + n % 7) + 1);
			n = (1 + n % 7) * (n / (1 + n % 7) + 1);
			zero = 1;
			break;
		case 3:
			api = "realloc(NULL)";
			p = realloc(NULL, n);
			break;
		case 4: {
			api = "posix_memalign";
			align = (size_t)16 << ((r >> 16) % 8);
			void *v = NULL;
			if (posix_memalign(&v, align, n) != 0)
				v = NULL;
			p = v;
			break;
		}
		case 5:
			api = "aligned_alloc";
			/* not above 128: the size is a multiple of the alignment */
			align = (size_t)8 << ((r >> 16) % 5);
			n = (n + align - 1) / align * align;
			p = aligned_alloc(align, n);
			break;
		default:
			api = "memalign";
			align = (size_t)32 << ((r >> 16) % 4);
			p = memalign(align, n);
			break;
		}
		if (!p) {
			fail(api, n, align);
			continue;
		}
		classify(p, m, api, n);
		if (align && (uintptr_t)p % align)
			fail("misaligned", (uintptr_t)p % align, align);
		if (zero)
			for (size_t i = 0; i < n; i++)
				if (p[i]) {
					fail("calloc not zeroed", i, n);
					break;
				}
		sl->p = p;
		sl->size = n;
		sl->seed = (unsigned)(r >> 40);
		fill(p, n, sl->seed);
		h = mix(h, n);
	}
	for (int i = 0; i < SLOTS; i++) {
		if (s[i].p && !intact(s[i].p, s[i].size, s[i].seed))
			fail("contents changed at the end", s[i].size, i);
		free(s[i].p);
		s[i].p = NULL;
	}
	return h;
}

/* The allocator's own entry points, given pointers from malloc (KFENCE's
 * under kfence.sample_rate=1) and the allocator's pointers given to free. */
static uint64_t own_entry_points(void)
{
	uint64_t h = 7;
	for (int i = 0; i < 400; i++) {
		size_t n = 1 + (size_t)(i * 37) % 3000, n2 = 1 + (size_t)(i * 91) % 6000;
		uint64_t m = alloc_mark();
		unsigned char *p = malloc(n);
		classify(p, m, "malloc", n);
		fill(p, n, i);
#if defined(USE_TCMALLOC)
		if (tc_malloc_size(p) < n)
			fail("tc_malloc_size", tc_malloc_size(p), n);
		if (i % 2) {
			unsigned char *q = tc_realloc(p, n2);
			if (!intact(q, n < n2 ? n : n2, i))
				fail("tc_realloc lost contents", n, n2);
			p = q;
			n = n2;
		}
		if (i % 3 == 0)
			tc_free_sized(p, n);
		else
			tc_free(p);
		/* tcmalloc's own allocations freed through the standard names. */
		unsigned char *a = tc_malloc(n2), *b = tc_calloc(3, n2), *c = tc_memalign(64, n2);
		void *d = NULL;
		if (tc_posix_memalign(&d, 128, n2) || !a || !b || !c || !d || (uintptr_t)c % 64 ||
		    (uintptr_t)d % 128)
			fail("tc_ allocation", n2, 0);
		fill(a, n2, i);
		if (malloc_usable_size(a) < n2)
			fail("malloc_usable_size of tc_malloc", malloc_usable_size(a), n2);
		a = realloc(a, n2 * 2);
		if (!intact(a, n2, i))
			fail("realloc of tc_malloc lost contents", n2, 0);
		for (size_t k = 0; k < 3 * n2; k++)
			h = mix(h, b[k]);
		free(a);
		free(b);
		free(c);
		free(d);
#elif defined(USE_MIMALLOC)
		if (mi_usable_size(p) < n)
			fail("mi_usable_size", mi_usable_size(p), n);
		if (i % 2) {
			unsigned char *q = mi_realloc(p, n2);
			if (!intact(q, n < n2 ? n : n2, i))
				fail("mi_realloc lost contents", n, n2);
			p = q;
		}
		mi_free(p);
		unsigned char *a = mi_malloc(n2), *b = mi_calloc(3, n2), *c = mi_malloc_aligned(n2, 64);
		char *d = mi_strdup("a string from mimalloc");
		if (!a || !b || !c || !d || (uintptr_t)c % 64)
			fail("mi_ allocation", n2, 0);
		fill(a, n2, i);
		if (malloc_usable_size(a) < n2)
			fail("malloc_usable_size of mi_malloc", malloc_usable_size(a), n2);
		a = realloc(a, n2 * 2);
		if (!intact(a, n2, i))
			fail("realloc of mi_malloc lost contents", n2, 0);
		for (size_t k = 0; k < 3 * n2; k++)
			h = mix(h, b[k]);
		h = mix(h, strlen(d));
		free(a);
		free(b);
		free(c);
		free(d);
#else
		if (sallocx(p, 0) < n)
			fail("sallocx", sallocx(p, 0), n);
		if (nallocx(n, 0) < n)
			fail("nallocx", nallocx(n, 0), n);
		if (xallocx(p, n, 0, 0) < n)
			fail("xallocx", xallocx(p, n, 0, 0), n);
		if (i % 2) {
			unsigned char *q = rallocx(p, n2, 0);
			if (!q || !intact(q, n < n2 ? n : n2, i))
				fail("rallocx lost contents", n, n2);
			p = q;
			n = n2;
		}
		if (i % 3 == 0)
			sdallocx(p, n, 0);
		else
			dallocx(p, 0);
		m = alloc_mark();
		unsigned char *a = mallocx(n2, 0);
		classify(a, m, "mallocx", n2);
		m = alloc_mark();
		unsigned char *b = mallocx(3 * n2, MALLOCX_ZERO | MALLOCX_ALIGN(64));
		classify(b, m, "mallocx(ZERO|ALIGN)", 3 * n2);
		if (!a || !b || (uintptr_t)b % 64)
			fail("mallocx", n2, 0);
		fill(a, n2, i);
		if (malloc_usable_size(a) < n2)
			fail("malloc_usable_size of mallocx", malloc_usable_size(a), n2);
		a = realloc(a, n2 * 2);
		if (!intact(a, n2, i))
			fail("realloc of mallocx lost contents", n2, 0);
		for (size_t k = 0; k < 3 * n2; k++)
			h = mix(h, b[k]);
		b = rallocx(b, 4 * n2, MALLOCX_ALIGN(64));
		if (!b || (uintptr_t)b % 64 || b[3 * n2 - 1])
			fail("rallocx(ALIGN)", n2, 0);
		free(a);
		if (i % 2)
			sdallocx(b, 4 * n2, MALLOCX_ALIGN(64));
		else
			free(b);
#endif
		h = mix(h, n);
	}
	return h;
}

/* Objects allocated in one thread and freed in another, as servers do. */
#define THREADS 4
#define PER_THREAD 3000
static unsigned char *handoff[THREADS][PER_THREAD];
static size_t handoff_size[THREADS][PER_THREAD];

static void *worker(void *arg)
{
	int id = (int)(intptr_t)arg;
	uint64_t s = 0x9e3779b97f4a7c15ull * (id + 1), h = 0;
	for (int i = 0; i < PER_THREAD; i++) {
		size_t n = 1 + next(&s) % 2048;
		uint64_t m = alloc_mark();
		unsigned char *p = malloc(n);
		classify(p, m, "malloc (thread)", n);
		fill(p, n, id + i);
		handoff[id][i] = p;
		handoff_size[id][i] = n;
		h = mix(h, n);
		if (i % 3 == 0) { /* some short-lived ones of its own */
			m = alloc_mark();
			void *t = calloc(1, n);
			classify(t, m, "calloc (thread)", n);
			free(t);
		}
	}
	return (void *)(uintptr_t)(h & 0xffffffff);
}

static void *reaper(void *arg)
{
	int id = (int)(intptr_t)arg;
	for (int i = 0; i < PER_THREAD; i++) {
		if (!intact(handoff[id][i], handoff_size[id][i], id + i))
			fail("contents changed before the free in another thread", id, i);
		free(handoff[id][i]);
	}
	return NULL;
}

static uint64_t threads(void)
{
	pthread_t t[THREADS];
	uint64_t h = 0;
	for (int i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, worker, (void *)(intptr_t)i);
	for (int i = 0; i < THREADS; i++) {
		void *r;
		pthread_join(t[i], &r);
		h = mix(h, (uintptr_t)r);
	}
	/* each thread frees another's objects */
	for (int i = 0; i < THREADS; i++)
		pthread_create(&t[i], NULL, reaper, (void *)(intptr_t)((i + 1) % THREADS));
	for (int i = 0; i < THREADS; i++)
		pthread_join(t[i], NULL);
	return h;
}

uint64_t cxx_workload(void);

int main(void)
{
	phase("malloc family");
	uint64_t a = malloc_family();
	fprintf(stderr, "alloc_user: after the malloc family: sampled=%lu owned=%lu foreign=%lu%s%s\n",
		sampled, owned, foreign, foreign ? " first: " : "", first_foreign);
	phase("allocator entry points");
	uint64_t b = own_entry_points();
	phase("threads");
	uint64_t c = threads();
	phase("C++ new/delete");
	uint64_t d = cxx_workload();
	printf("%s malloc family %016llx\n", ALLOCATOR, (unsigned long long)a);
	printf("%s entry points %016llx\n", ALLOCATOR, (unsigned long long)b);
	printf("%s threads %016llx\n", ALLOCATOR, (unsigned long long)c);
	printf("%s c++ %016llx\n", ALLOCATOR, (unsigned long long)d);
	fprintf(stderr, "alloc_user: %s sampled=%lu owned=%lu foreign=%lu%s%s\n", ALLOCATOR, sampled,
		owned, foreign, foreign ? " first: " : "", first_foreign);
	return failures ? 1 : 0;
}
