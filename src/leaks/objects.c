/* The objects read out of a stopped process, whichever heap they came from
 * (the preload's registry, track.c; the generic mode's heap, generic.c):
 * a sorted array of records, shown to kmemleak's scan through the
 * functions a struct leak_heap is made of. kmemleak's LEAK_REPORTED bit
 * of a newly reported object is written back into the process, into the
 * 32-bit word its heap keeps it in, so that a leak is reported once across
 * checks, as by the kernel's kmemleak. */
#include <stdio.h>
#include <stdlib.h>

#include "../base/leak_heap.h"
#include "../platform/remote.h"
#include "leaks.h"

struct rec {
	uintptr_t base;
	size_t size;
	uint32_t stack, tid;
	unsigned flags;    /* enum leak_flags, this scan's */
	uint32_t word;     /* the process's word holding them, as read */
	uintptr_t word_at; /* where it is */
} __attribute__((aligned(8)));

static struct rec *recs;
static size_t nrecs, caprecs;
static unsigned flags_shift; /* kmemleak's bits in the word: from this bit */
static int chunk_headers;

void objects_layout(unsigned shift, int glibc_headers)
{
	flags_shift = shift;
	chunk_headers = glibc_headers;
}

int objects_add(uintptr_t base, size_t size, uint32_t stack, uint32_t tid, uint32_t word,
                uintptr_t word_at)
{
	if (nrecs == caprecs) {
		size_t cap = caprecs ? caprecs * 2 : 1024;
		struct rec *more =
		    cap > SIZE_MAX / sizeof(*recs) ? NULL : realloc(recs, cap * sizeof(*recs));
		if (!more)
			return -1;
		recs = more;
		caprecs = cap;
	}
	struct rec *o = &recs[nrecs++];
	o->base = base;
	o->size = base + size < base ? 0 : size; /* wraps: not a size we trust */
	o->stack = stack;
	o->tid = tid;
	o->word = word;
	o->word_at = word_at;
	o->flags = (word >> flags_shift) & (LEAK_IGNORED | LEAK_REPORTED);
	return 0;
}

static int by_base(const void *a, const void *b)
{
	uintptr_t x = ((const struct rec *)a)->base, y = ((const struct rec *)b)->base;
	return x < y ? -1 : x > y;
}

/* Sorted, one record per address (a lying process may give two: the
 * first is kept, so that find and each_live agree). */
void objects_sort(void)
{
	qsort(recs, nrecs, sizeof(*recs), by_base);
	size_t n = 0;
	for (size_t i = 0; i < nrecs; i++)
		if (!n || recs[i].base != recs[n - 1].base)
			recs[n++] = recs[i];
	nrecs = n;
}

size_t objects_count(void)
{
	return nrecs;
}

static size_t lower_bound(uintptr_t a)
{
	size_t l = 0, h = nrecs;
	while (l < h) {
		size_t m = l + (h - l) / 2;
		if (recs[m].base < a)
			l = m + 1;
		else
			h = m;
	}
	return l;
}

/* Each span's first object's memory, its 16-byte header (glibc's or
 * ours) included. */
int objects_scan_begin(const struct leak_span *spans, long n, uintptr_t *first,
                       struct leak_span *bounds)
{
	bounds->start = bounds->end = 0;
	if (nrecs) {
		bounds->start = recs[0].base;
		for (size_t i = 0; i < nrecs; i++) {
			uintptr_t end = recs[i].base + (recs[i].size ? recs[i].size : 1);
			if (end > bounds->end)
				bounds->end = end;
		}
	}
	for (long k = 0; k < n; k++) {
		size_t i = lower_bound(spans[k].start);
		first[k] = 0;
		if (i < nrecs && recs[i].base < spans[k].end)
			first[k] = recs[i].base - spans[k].start >= 16 ? recs[i].base - 16
			                                               : spans[k].start;
	}
	return 0;
}

/* A live object starts at p. */
static int live_at(uintptr_t p)
{
	size_t i = lower_bound(p);
	return i < nrecs && recs[i].base == p;
}

/* As leak_track.c's track_find and generic_walk.c's find: the object whose
 * requested bytes hold a, or of size 0 starting there; with glibc's chunk
 * headers, leak_glibc_arena_word. */
struct leak_object *objects_find(uintptr_t a)
{
	size_t i = lower_bound(a + 1);
	if (!i)
		return NULL;
	struct rec *r = &recs[i - 1];
	if (a == r->base)
		return (struct leak_object *)r;
	if (a - r->base >= r->size)
		return NULL;
	if (chunk_headers && leak_glibc_arena_word(a, r->base, r->size, live_at))
		return NULL;
	return (struct leak_object *)r;
}

void objects_each_live(void (*fn)(struct leak_object *o, void *arg), void *arg)
{
	for (size_t i = 0; i < nrecs; i++)
		fn((struct leak_object *)&recs[i], arg);
}

void objects_describe(const struct leak_object *o, struct leak_object_info *info)
{
	const struct rec *r = (const struct rec *)o;
	info->base = r->base;
	info->size = r->size;
	info->stack = r->stack;
	info->tid = r->tid;
	info->flags = r->flags;
}

/* A newly reported object's bit goes back into the process's word (its
 * other bits and its thread as they were: the process is stopped). */
unsigned objects_flags_update(struct leak_object *o, unsigned set, unsigned clear)
{
	struct rec *r = (struct rec *)o;
	unsigned old = r->flags;
	r->flags = (r->flags & ~clear) | set;
	if ((set & LEAK_REPORTED) && !(old & LEAK_REPORTED)) {
		uint32_t w = r->word | (uint32_t)LEAK_REPORTED << flags_shift;
		if (remote_write(r->word_at, &w, sizeof(w)) != 0)
			fprintf(stderr,
			        "ukasan: cannot mark the object at 0x%lx reported in the "
			        "process; a later check reports it again\n",
			        (unsigned long)r->base);
	}
	return old;
}
