/* The preload's registry (runtime/leak_track.c), read out of a stopped
 * process: each shard's table copied, its live records kept in a sorted
 * array here, and shown to kmemleak's scan as a heap (base/leak_heap.h),
 * as leak_track.c shows its own copy in-process. The LEAK_REPORTED bit is
 * written back to the process's record, so that a leak is reported once
 * across checks, as by the kernel's kmemleak. Every size, count and
 * address read from the process is checked before use. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/leak_heap.h"
#include "../base/leak_remote.h"
#include "../platform/remote.h"
#include "leaks.h"

struct rec {
	uintptr_t base;
	size_t size;
	uint32_t stack, tid;
	unsigned flags;    /* enum leak_flags, this scan's */
	uint32_t word;     /* the process's flags word, as read */
	uintptr_t word_at; /* where it is */
} __attribute__((aligned(8)));

static struct rec *recs;
static size_t nrecs;
static int chunk_headers;
static unsigned flag_bits;

static uint64_t load(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	memcpy(&v, p, n); /* little-endian hosts: x86-64, arm64 */
	return v;
}

static int by_base(const void *a, const void *b)
{
	uintptr_t x = ((const struct rec *)a)->base, y = ((const struct rec *)b)->base;
	return x < y ? -1 : x > y;
}

/* A table of cap slots at tab, its live records added. */
static int read_table(const struct leak_remote_track *t, uintptr_t tab, uint64_t cap)
{
	static uint8_t buf[1 << 16];
	size_t per = sizeof(buf) / t->rec_size;
	for (uint64_t k = 0; k < cap; k += per) {
		size_t n = cap - k < per ? (size_t)(cap - k) : per;
		uintptr_t at = tab + (uintptr_t)(k * t->rec_size);
		if (at < tab || remote_read(buf, at, n * t->rec_size) != 0)
			return -1;
		for (size_t i = 0; i < n; i++) {
			const uint8_t *r = buf + i * t->rec_size;
			uintptr_t key = load(r + t->key_off, 8);
			if (key <= 1) /* empty or removed */
				continue;
			if ((nrecs & (nrecs - 1)) == 0 && nrecs >= 1024) {
				struct rec *more = realloc(recs, nrecs * 2 * sizeof(*recs));
				if (!more)
					return -1;
				recs = more;
			} else if (!recs) {
				recs = malloc(1024 * sizeof(*recs));
				if (!recs)
					return -1;
			}
			struct rec *o = &recs[nrecs++];
			o->base = ~key;
			o->size = load(r + t->size_off, 8);
			if (o->base + o->size < o->base) /* wraps: not a record we trust */
				o->size = 0;
			o->stack = (uint32_t)load(r + t->stack_off, 4);
			o->word = (uint32_t)load(r + t->flags_off, 4);
			o->word_at = at + i * t->rec_size + t->flags_off;
			o->tid = o->word >> flag_bits;
			o->flags =
			    o->word & ((1u << flag_bits) - 1) & (LEAK_IGNORED | LEAK_REPORTED);
		}
	}
	return 0;
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

static int scan_begin(const struct leak_span *spans, long n, uintptr_t *first,
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

/* As leak_track.c's next_chunk_live: a live object right after the
 * header at a (the arena points only at free chunks' headers). */
static int next_chunk_live(uintptr_t a)
{
	size_t i = lower_bound(a + 16);
	return i < nrecs && recs[i].base == a + 16;
}

/* As leak_track.c's track_find, glibc's chunk headers included. */
static struct leak_object *find(uintptr_t a)
{
	size_t i = lower_bound(a + 1);
	if (!i)
		return NULL;
	struct rec *r = &recs[i - 1];
	if (a == r->base)
		return (struct leak_object *)r;
	if (a - r->base >= r->size)
		return NULL;
	if (chunk_headers && !(a & 15) && r->size - (a - r->base) <= 8 && !next_chunk_live(a))
		return NULL;
	return (struct leak_object *)r;
}

static void each_live(void (*fn)(struct leak_object *o, void *arg), void *arg)
{
	for (size_t i = 0; i < nrecs; i++)
		fn((struct leak_object *)&recs[i], arg);
}

static void describe(const struct leak_object *o, struct leak_object_info *info)
{
	const struct rec *r = (const struct rec *)o;
	info->base = r->base;
	info->size = r->size;
	info->stack = r->stack;
	info->tid = r->tid;
	info->flags = r->flags;
}

/* A newly reported object's bit goes back into the process's record (its
 * other bits and its thread as they were: the process is stopped). */
static unsigned flags_update(struct leak_object *o, unsigned set, unsigned clear)
{
	struct rec *r = (struct rec *)o;
	unsigned old = r->flags;
	r->flags = (r->flags & ~clear) | set;
	if ((set & LEAK_REPORTED) && !(old & LEAK_REPORTED)) {
		uint32_t w = r->word | LEAK_REPORTED;
		if (remote_write(r->word_at, &w, sizeof(w)) != 0)
			fprintf(stderr,
			        "ukasan: cannot mark the object at 0x%lx reported in the "
			        "process; a later check reports it again\n",
			        (unsigned long)r->base);
	}
	return old;
}

static const struct leak_heap track_heap = {
    .name = "preload (from outside)",
    .scan_begin = scan_begin,
    .find = find,
    .each_live = each_live,
    .describe = describe,
    .flags_update = flags_update,
};

static const struct leak_remote *desc;

const struct leak_heap *track_read(const struct leak_remote *d)
{
	const struct leak_remote_track *t = &d->track;
	desc = d;
	/* The layout the process says it has, within what a record can be. */
	if (!t->shards || !t->nshards || t->nshards > 4096 || t->shard_size > 4096 ||
	    t->tab_off > t->shard_size - 8 || t->cap_off > t->shard_size - 8 || t->rec_size < 16 ||
	    t->rec_size > 256 || t->key_off > t->rec_size - 8 || t->size_off > t->rec_size - 8 ||
	    t->stack_off > t->rec_size - 4 || t->flags_off > t->rec_size - 4 || !t->flag_bits ||
	    t->flag_bits > 16 || t->shard_size < 16) {
		fprintf(stderr, "ukasan: the process's leak registry has a layout this tool does "
		                "not read\n");
		return NULL;
	}
	flag_bits = t->flag_bits;
	chunk_headers = t->chunk_headers != 0;
	uint8_t shard[4096];
	for (uint32_t i = 0; i < t->nshards; i++) {
		uintptr_t at = (uintptr_t)t->shards + (uintptr_t)i * t->shard_size;
		if (at < t->shards || remote_read(shard, at, t->shard_size) != 0)
			goto unreadable;
		uintptr_t tab = load(shard + t->tab_off, 8);
		uint64_t cap = load(shard + t->cap_off, 8);
		if (!tab)
			continue;
		/* A power of 2, and the table within the address space. */
		if (!cap || (cap & (cap - 1)) || cap > (UINT64_MAX >> 9) ||
		    tab + cap * t->rec_size < tab)
			goto unreadable;
		if (read_table(t, tab, cap) != 0)
			goto unreadable;
	}
	qsort(recs, nrecs, sizeof(*recs), by_base);
	return &track_heap;
unreadable:
	fprintf(stderr, "ukasan: the process's leak registry could not be read\n");
	return NULL;
}

/* Stacks are fetched once each: a direct-mapped cache of the records. */
#define CACHE 4096
static struct {
	uint32_t handle;
	int n;
	uintptr_t pcs[64];
} cache[CACHE];

int track_fetch_stack(uint32_t handle, const uintptr_t **pcs)
{
	static uintptr_t depot;
	static int have_depot;
	if (!handle || !desc || handle >= desc->depot_bytes || (handle & 7))
		return 0;
	if (!have_depot) {
		have_depot = 1;
		if (remote_read(&depot, (uintptr_t)desc->depot, sizeof(depot)) != 0)
			depot = 0;
	}
	if (!depot)
		return 0;
	size_t slot = (handle >> 3) * 0x9e3779b1u % CACHE;
	if (cache[slot].handle != handle) {
		uint32_t head[2];
		cache[slot].handle = 0;
		if (depot + handle < depot || remote_read(head, depot + handle, sizeof(head)) != 0)
			return 0;
		uint32_t max = desc->max_frames < 64 ? desc->max_frames : 64;
		uint32_t n = head[0] < max ? head[0] : max;
		if (remote_read(cache[slot].pcs, depot + handle + 8, n * sizeof(uintptr_t)) != 0)
			return 0;
		cache[slot].handle = handle;
		cache[slot].n = (int)n;
	}
	*pcs = cache[slot].pcs;
	return cache[slot].n;
}
