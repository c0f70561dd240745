/* What every mode's heap shows a leak scan alike (base/leak_heap.h): the
 * generic heap (generic_walk.c) and the tag modes' (tags_walk.c) differ in
 * how their small objects are found, but share the large objects (large.c's
 * regions and records), the object headers whose alloc_tid keeps kmemleak's
 * three bits, and the unsampled large objects, which are roots.
 *
 * The large objects are indexed at the start of a scan, sorted by address,
 * so that the scan finds the one holding a word by a binary search. Asking
 * large_find instead walks back a page at a time to the object before the
 * address: about a gigabyte of metadata for one word in SQLite's test
 * suite, most of the exit check's time. Past LARGE_MAX (a heap of 16 GiB
 * of large objects at least) large_find serves the rest. */
#include "../base/compiler.h"
#include "../base/leak_heap.h"
#include "../platform/os.h"
#include "shared.h"

#define LARGE_MAX (1l << 22)
static struct leak_span *larges;        /* [object, its end) */
static struct large_meta **large_metas; /* larges[i]'s record */
static long nlarges;
static int larges_all;

long walk_span_index(const struct leak_span *s, long n, uintptr_t a)
{
	long l = 0, h = n;
	while (l < h) {
		long m = (l + h) / 2;
		if (a < s[m].start)
			h = m;
		else if (a >= s[m].end)
			l = m + 1;
		else
			return m;
	}
	return -1;
}

static void note_large(struct large_meta *m, void *arg)
{
	(void)arg;
	if (nlarges == LARGE_MAX) {
		larges_all = 0;
		return;
	}
	larges[nlarges] = (struct leak_span){m->obj, m->obj + (m->size ? m->size : 1)};
	large_metas[nlarges++] = m;
}

/* Shell sort by start: no allocation, and the regions' objects come in
 * runs already in order. */
static void sort_larges(void)
{
	for (long gap = nlarges / 2; gap > 0; gap /= 2)
		for (long i = gap; i < nlarges; i++) {
			struct leak_span t = larges[i];
			struct large_meta *tm = large_metas[i];
			long j = i;
			for (; j >= gap && larges[j - gap].start > t.start; j -= gap) {
				larges[j] = larges[j - gap];
				large_metas[j] = large_metas[j - gap];
			}
			larges[j] = t;
			large_metas[j] = tm;
		}
}

void walk_large_begin(uintptr_t *lo, uintptr_t *hi)
{
	if (!larges) {
		larges = os_reserve(LARGE_MAX * sizeof(*larges), OS_PROT_RW);
		large_metas = os_reserve(LARGE_MAX * sizeof(*large_metas), OS_PROT_RW);
	}
	nlarges = 0;
	larges_all = larges && large_metas;
	if (larges_all) {
		large_each_live(note_large, NULL);
		sort_larges();
	}
	uintptr_t base;
	size_t len;
	for (int i = 0; large_region(i, &base, &len); i++) {
		*lo = base < *lo ? base : *lo;
		*hi = base + len > *hi ? base + len : *hi;
	}
}

struct chunk *walk_large_find(uintptr_t a)
{
	if (!large_owns(a))
		return NULL;
	struct large_meta *lm;
	if (larges_all) {
		long i = walk_span_index(larges, nlarges, a);
		lm = i < 0 ? NULL : large_metas[i];
	} else
		lm = large_find(a);
	if (!lm || lm->c.state != (CHUNK_LIVE | CHUNK_LARGE) || a < lm->obj ||
	    a >= lm->obj + (lm->size ? lm->size : 1))
		return NULL;
	return &lm->c;
}

struct large_pass {
	void (*fn)(struct leak_object *o, void *arg);
	void *arg;
};

static void large_one(struct large_meta *m, void *arg)
{
	struct large_pass *p = arg;
	p->fn((struct leak_object *)&m->c, p->arg);
}

void walk_large_each(void (*fn)(struct leak_object *o, void *arg), void *arg)
{
	struct large_pass p = {fn, arg};
	large_each_live(large_one, &p);
}

/* kmemleak's bits are alloc_tid's top three (CHUNK_TID_FLAGS_SHIFT). */
void walk_describe(const struct leak_object *o, struct leak_object_info *info)
{
	const struct chunk *c = (const struct chunk *)o;
	info->base = chunk_object(c);
	info->size = chunk_size(c);
	info->stack = c->alloc_stack;
	info->tid = c->alloc_tid & CHUNK_TID_MASK;
	info->flags = c->alloc_tid >> CHUNK_TID_FLAGS_SHIFT;
}

unsigned walk_flags_update(struct leak_object *o, unsigned set, unsigned clear)
{
	struct chunk *c = (struct chunk *)o;
	uint32_t tid = c->alloc_tid;
	uint32_t now = (tid | (uint32_t)set << CHUNK_TID_FLAGS_SHIFT) &
	               ~((uint32_t)clear << CHUNK_TID_FLAGS_SHIFT);
	if (now != tid)
		c->alloc_tid = now;
	return tid >> CHUNK_TID_FLAGS_SHIFT;
}

/* From any thread, while others allocate and free: c is a live object's
 * header. */
void walk_ignore(struct chunk *c)
{
	__atomic_fetch_or(&c->alloc_tid, CHUNK_TID_IGNORED, __ATOMIC_RELAXED);
}

void walk_thread_ignore(int on)
{
	if (on)
		chunk_leaks_ignored++;
	else if (chunk_leaks_ignored > 0)
		chunk_leaks_ignored--;
}

struct root_pass {
	void (*fn)(uintptr_t lo, uintptr_t hi, void *arg);
	void *arg;
};

static void unsampled_root(uintptr_t p, size_t size, void *arg)
{
	struct root_pass *r = arg;
	r->fn(p, p + size, r->arg);
}

void walk_unsampled_roots(void (*fn)(uintptr_t lo, uintptr_t hi, void *arg), void *arg)
{
	struct root_pass r = {fn, arg};
	unsampled_each(unsampled_root, &r);
}
