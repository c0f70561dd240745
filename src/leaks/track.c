/* The preload's registry (runtime/leak_track.c), read out of a stopped
 * process: each shard's table copied, its live records kept in objects.c's
 * sorted array, and shown to kmemleak's scan as a heap (base/leak_heap.h),
 * as leak_track.c shows its own copy in-process; also the stacks of the
 * depot, for the report. Every size, count and address read from the
 * process is checked before use. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../base/leak_heap.h"
#include "../base/leak_remote.h"
#include "../platform/remote.h"
#include "leaks.h"

static unsigned flag_bits;

static uint64_t load(const uint8_t *p, unsigned n)
{
	uint64_t v = 0;
	memcpy(&v, p, n); /* little-endian hosts: x86-64, arm64 */
	return v;
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
			uint32_t word = (uint32_t)load(r + t->flags_off, 4);
			if (objects_add(~key, load(r + t->size_off, 8),
			                (uint32_t)load(r + t->stack_off, 4), word >> flag_bits,
			                word, at + i * t->rec_size + t->flags_off) != 0)
				return -1;
		}
	}
	return 0;
}

static const struct leak_heap track_heap = {
    .name = "preload (from outside)",
    .scan_begin = objects_scan_begin,
    .find = objects_find,
    .each_live = objects_each_live,
    .describe = objects_describe,
    .flags_update = objects_flags_update,
};

static const struct leak_remote *desc;

void track_depot(const struct leak_remote *d)
{
	desc = d;
}

const struct leak_heap *track_read(const struct leak_remote *d)
{
	const struct leak_remote_track *t = &d->track;
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
	/* kmemleak's bits are the word's lowest; the thread above them. */
	objects_layout(0, t->chunk_headers != 0);
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
	objects_sort();
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
