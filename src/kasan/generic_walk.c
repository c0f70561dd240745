/* The generic mode's heap as a leak scan sees it (base/leak_heap.h): its
 * live objects, the object an address falls in, and the memory it holds
 * that is to be scanned as roots.
 *
 * No registry of live objects is kept: the allocator's shadow already says
 * where every small object starts (its left redzone ends there), so they
 * are found by reading the shadow of the mappings glibc's arenas live in,
 * 1/8 of their size, and the allocation path pays nothing. The object an
 * address falls in is found by walking the shadow left to the redzone;
 * large objects are in large.c's regions and records. The three bits
 * kmemleak keeps per object are the top of the header's alloc_tid.
 *
 * Roots that only the heap knows of: every thread's live fake frames
 * (kasan.stack_use_after_return keeps address-taken locals there), and the
 * unsampled large objects, which have no header and are not tracked. */
#include "../base/compiler.h"
#include "../base/leak_heap.h"
#include "../kfence/kfence.h"
#include "../platform/os.h"
#include "../platform/threads.h"
#include "../shadow/shadow.h"
#include "generic.h"
#include "kasan.h"
#include "shared.h"

typedef void (*each_fn)(struct leak_object *o, void *arg);

#define MAX_SPANS 65536

/* Set by scan_begin, read by the scan: the spans that hold small objects,
 * sorted, and whether there are objects of size 0 to look for. */
static struct leak_span *spans;
static long nspans;
static int empties;

/* Also set by scan_begin: the live large objects, sorted by address, so
 * that the scan finds the one holding a word by a binary search. Asking
 * large_find instead walks back a page at a time to the object before the
 * address: about a gigabyte of metadata for one word in SQLite's test
 * suite, most of the exit check's time. Past LARGE_MAX (a heap of 16 GiB
 * of large objects at least) large_find serves the rest. */
#define LARGE_MAX (1l << 22)
static struct leak_span *larges;        /* [object, its end) */
static struct large_meta **large_metas; /* larges[i]'s record */
static long nlarges;
static int larges_all;

static struct leak_object *as_object(struct chunk *c)
{
	return (struct leak_object *)c;
}

static struct chunk *as_chunk(const struct leak_object *o)
{
	return (struct chunk *)o;
}

/* A live small object's header. Memory that only looks like one (a run
 * of bytes equal to CHUNK_LIVE where the shadow happens to end a redzone:
 * a fuzzer's repeated bytes) has an impossible size, and the scan would
 * read gigabytes past the heap. */
static int small_live(const struct chunk *c)
{
	if (!c || c->state != CHUNK_LIVE || c->size >= 4096)
		return 0;
	if (!c->size)
		return 1;
	/* Its end as the shadow marks it: a partial granule or a poisoned one
	 * (the right redzone, or the program's own poisoning, as a container's
	 * unused tail), never an addressable one. */
	uintptr_t end = chunk_object(c) + c->size;
	int8_t tail = *shadow_of(ALIGN_DOWN(end, GRANULE));
	return tail < 0 || ((end & (GRANULE - 1)) && tail == (int8_t)(end & (GRANULE - 1)));
}

/* The live object of size 0 that starts at a, if any (the shadow shows no
 * start for them: their first granule is redzone). */
static struct chunk *empty_at(uintptr_t a)
{
	if (!empties || (a & 15) || (uint8_t)*shadow_of(a) != SHADOW_SLAB_REDZONE)
		return NULL;
	struct chunk *c = generic_chunk_of(a);
	return c && !c->size && small_live(c) ? c : NULL;
}

/* The small object whose requested bytes hold a, when live; else NULL. */
static struct chunk *small_find(uintptr_t a)
{
	if (!shadow_covers(a))
		return NULL;
	if (*shadow_of(a) < 0)
		return empty_at(a);
	uintptr_t g = ALIGN_DOWN(a, GRANULE);
	/* Small objects are under a page, their alignment too. */
	for (int i = 0; i < 4096 / (int)GRANULE + 2; i++, g -= GRANULE) {
		int8_t left = *shadow_of(g - GRANULE);
		if ((uint8_t)left == SHADOW_SLAB_REDZONE) {
			struct chunk *c = generic_chunk_of(g);
			if (!small_live(c))
				return NULL;
			return a < g + c->size || (a == g && !c->size) ? c : NULL;
		}
		if (left != 0)
			return NULL;
	}
	return NULL;
}

/* The index of the span of the sorted s[0..n) that holds a, or -1. */
static long span_index(const struct leak_span *s, long n, uintptr_t a)
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

static struct large_meta *large_holding(uintptr_t a)
{
	long i = span_index(larges, nlarges, a);
	return i < 0 ? NULL : large_metas[i];
}

/* Every object the scan can reach must be one each_live lists, or its
 * mark would stay and a later scan would take it as marked already and
 * never follow its pointers (the objects behind it, false leaks). */
static struct leak_object *find(uintptr_t a)
{
	if (span_index(spans, nspans, a) >= 0)
		return as_object(small_find(a));
	if (!large_owns(a))
		return NULL;
	struct large_meta *lm = larges_all ? large_holding(a) : large_find(a);
	if (!lm || lm->c.state != (CHUNK_LIVE | CHUNK_LARGE) || a < lm->obj ||
	    a >= lm->obj + (lm->size ? lm->size : 1))
		return NULL;
	return as_object(&lm->c);
}

/* Small objects in [lo, hi), from the shadow: an object starts where a
 * run of left-redzone bytes ends. Shadow pages never touched read zero and
 * are skipped unread. */
static size_t each_small(uintptr_t lo, uintptr_t hi, each_fn fn, void *arg)
{
	const size_t page = 4096;
	uintptr_t s0 = (uintptr_t)shadow_of(lo), s1 = (uintptr_t)shadow_of(hi);
	size_t found = 0;
	uint8_t prev = 0;
	unsigned char vec[256];
	for (uintptr_t sp = ALIGN_DOWN(s0, page); sp < s1; sp += sizeof(vec) * page) {
		size_t len = sizeof(vec) * page;
		if (os_resident(sp, len, vec) != 0)
			for (size_t i = 0; i < sizeof(vec); i++)
				vec[i] =
				    os_resident(sp + i * page, page, &vec[i]) == 0 && (vec[i] & 1);
		for (size_t i = 0; i < sizeof(vec) && sp + i * page < s1; i++) {
			uintptr_t b = sp + i * page, e = b + page;
			if (!(vec[i] & 1) || !shadow_mapped(shadow_to_mem((void *)b))) {
				prev = 0;
				continue;
			}
			if (b < s0)
				b = s0;
			if (e > s1)
				e = s1;
			for (; b < e; b++) {
				/* Whole words of redzone or of addressable bytes are
				 * passed at once, but an object may start at the first
				 * byte of a zero word (64-byte aligned, 64 bytes or
				 * more): only the bytes after it are skipped unread. */
				if (!(b & 7) && b + 8 <= e) {
					uint64_t w = *(const uint64_t *)b;
					if ((w == 0xfcfcfcfcfcfcfcfcull && !empties) ||
					    (!w && prev != SHADOW_SLAB_REDZONE)) {
						prev = (uint8_t)w;
						b += 7;
						continue;
					}
				}
				uint8_t s = *(const uint8_t *)b;
				if (prev == SHADOW_SLAB_REDZONE && s < 8) {
					struct chunk *c =
					    generic_chunk_of(shadow_to_mem((void *)b));
					if (small_live(c)) {
						found++;
						fn(as_object(c), arg);
					}
				} else if (prev == SHADOW_SLAB_REDZONE && s == prev) {
					struct chunk *c = empty_at(shadow_to_mem((void *)b));
					if (c) {
						found++;
						fn(as_object(c), arg);
					}
				}
				prev = s;
			}
		}
	}
	return found;
}

static void note_first(struct leak_object *o, void *arg)
{
	uintptr_t *first = arg;
	if (!*first || (uintptr_t)o < *first)
		*first = (uintptr_t)o;
}

/* Which spans hold small objects, from their shadow; the first object's
 * header is where its memory starts. */
static int scan_begin(const struct leak_span *in, long n, uintptr_t *first,
                      struct leak_span *bounds)
{
	if (!spans)
		spans = os_reserve(MAX_SPANS * sizeof(*spans), OS_PROT_RW);
	if (!spans)
		return -1;
	/* The other threads are stopped: the count holds for the scan. */
	empties = __atomic_load_n(&generic_empty_live, __ATOMIC_RELAXED) > 0;
	nspans = 0;
	uintptr_t lo = UINTPTR_MAX, hi = 0;
	for (long i = 0; i < n; i++) {
		const struct leak_span *s = &in[i];
		first[i] = 0;
		if (!shadow_covers(s->start) || !shadow_covers(s->end - 1) ||
		    large_owns(s->start) || kfence_owns((void *)s->start) || nspans >= MAX_SPANS)
			continue;
		if (each_small(s->start, s->end, note_first, &first[i])) {
			spans[nspans++] = *s;
			lo = s->start < lo ? s->start : lo;
			hi = s->end > hi ? s->end : hi;
		}
	}
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
		lo = base < lo ? base : lo;
		hi = base + len > hi ? base + len : hi;
	}
	bounds->start = lo < hi ? lo : 0;
	bounds->end = lo < hi ? hi : 0;
	return 0;
}

struct large_pass {
	each_fn fn;
	void *arg;
};

static void large_one(struct large_meta *m, void *arg)
{
	struct large_pass *p = arg;
	p->fn(as_object(&m->c), p->arg);
}

static void each_live(each_fn fn, void *arg)
{
	for (long i = 0; i < nspans; i++)
		each_small(spans[i].start, spans[i].end, fn, arg);
	struct large_pass p = {fn, arg};
	large_each_live(large_one, &p);
}

/* kmemleak's bits are alloc_tid's top three (CHUNK_TID_FLAGS_SHIFT). */
static void describe(const struct leak_object *o, struct leak_object_info *info)
{
	const struct chunk *c = as_chunk(o);
	info->base = chunk_object(c);
	info->size = chunk_size(c);
	info->stack = c->alloc_stack;
	info->tid = c->alloc_tid & CHUNK_TID_MASK;
	info->flags = c->alloc_tid >> CHUNK_TID_FLAGS_SHIFT;
}

static unsigned flags_update(struct leak_object *o, unsigned set, unsigned clear)
{
	struct chunk *c = as_chunk(o);
	uint32_t tid = c->alloc_tid;
	uint32_t now = (tid | (uint32_t)set << CHUNK_TID_FLAGS_SHIFT) &
	               ~((uint32_t)clear << CHUNK_TID_FLAGS_SHIFT);
	if (now != tid)
		c->alloc_tid = now;
	return tid >> CHUNK_TID_FLAGS_SHIFT;
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

static void each_root(void (*fn)(uintptr_t lo, uintptr_t hi, void *arg), void *arg)
{
	generic_fake_stack_each_live(fn, arg);
	struct root_pass r = {fn, arg};
	unsampled_each(unsampled_root, &r);
}

/* From any thread, while others allocate and free. */
static int ignore(uintptr_t p)
{
	struct chunk *c = generic_chunk_of(p);
	if (!c || (c->state & ~CHUNK_LARGE) != CHUNK_LIVE)
		return 0;
	__atomic_fetch_or(&c->alloc_tid, CHUNK_TID_IGNORED, __ATOMIC_RELAXED);
	return 1;
}

static void thread_ignore(int on)
{
	if (on)
		chunk_leaks_ignored++;
	else if (chunk_leaks_ignored > 0)
		chunk_leaks_ignored--;
}

const struct leak_heap generic_leak_heap = {
    .name = "generic",
    .scan_begin = scan_begin,
    .find = find,
    .each_live = each_live,
    .describe = describe,
    .flags_update = flags_update,
    .each_root = each_root,
    .ignore = ignore,
    .thread_ignore = thread_ignore,
};
