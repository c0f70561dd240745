/* What large.c (regions, objects, their quarantine) and large_pool.c (free
 * extents: bins, reuse, merging, purges) share; private to the two. */
#ifndef UKASAN_KASAN_LARGE_H
#define UKASAN_KASAN_LARGE_H

#include <stddef.h>
#include <stdint.h>

#include "../base/compiler.h"
#include "../platform/lock.h"
#include "../platform/os.h"
#include "shared.h"

#define MAX_REGIONS      256
#define POOL_SHADOW_KEEP (2ul << 20) /* per lane: 16 MiB of warm memory */
#define LANES            4

struct region {
	uintptr_t base;
	size_t len;
	struct large_meta *meta; /* one record per page */
	int lane;
};

extern RT_HIDDEN struct region large_regions[MAX_REGIONS];
extern RT_HIDDEN int large_nregions;

enum large_flags {
	LARGE_FREE = 1,            /* in a bin */
	LARGE_SHADOW_RELEASED = 2, /* a free extent's shadow reads 00 */
	LARGE_SHADOW_DIRTY = 4,    /* a run being purged: pages to give back */
	/* The program mapped over or unmapped part of the extent (large_taken):
	 * the extent is never used again, its pages never given back. */
	LARGE_RETIRED = 8,
	LARGE_TAKEN = 16, /* the same of a live object's: retired when freed */
};

#define NBINS 192
struct bin {
	struct large_meta *head, *tail;
};

/* Lanes, chosen by the CPU a thread runs on as the kernel's per-CPU
 * caches are, each with its own regions, lock, bins and quarantine: two
 * threads sharing one lock, and interleaving their extents in the same
 * pages of memory, shadow and records, took 1.3x the time of two processes
 * on test_vmalloc's shapes. By CPU, not by thread, so that what lanes hold
 * is bounded by the CPUs and not by how many threads a program ever made.
 * A free goes back to the lane of the region it came from. */
struct lane {
	/* Lock order (platform/lock.h): purge_lock, then lock, then large.c's
	 * regions_lock; after the quarantine's, before page_sample.c's. */
	struct spinlock lock;
	/* Held for a whole purge, taken before lock: one purge at a time, and
	 * its system calls made without lock, so that other threads allocate
	 * and free meanwhile. */
	struct spinlock purge_lock;
	struct bin bins[NBINS];
	size_t pool_shadow; /* bytes of poisoned shadow free extents hold */
	size_t pool_bytes;
	struct {
		struct large_meta *head, *tail;
		size_t bytes;
	} quarantine;
} __attribute__((aligned(64)));

extern RT_HIDDEN struct lane large_lanes[LANES];

static inline uintptr_t extent_of(const struct region *r, const struct large_meta *m)
{
	return r->base + (size_t)(m - r->meta) * os_page_size();
}

static inline struct region *region_of_meta(const struct large_meta *m)
{
	int n = __atomic_load_n(&large_nregions, __ATOMIC_ACQUIRE);
	for (int i = 0; i < n; i++) {
		size_t off = (uintptr_t)m - (uintptr_t)large_regions[i].meta;
		if (off < large_regions[i].len / os_page_size() * sizeof(*m))
			return &large_regions[i];
	}
	return NULL;
}

static inline size_t shadow_of_pages(size_t pages)
{
	return pages * os_page_size() >> 3;
}

/* large_pool.c; the lane's lock held unless said. */
void pool_set_pages(struct large_meta *m, size_t pages);
void pool_insert(struct lane *l, struct large_meta *m, size_t pages, uint8_t released);
void pool_remove(struct lane *l, struct large_meta *m);
struct large_meta *pool_take(struct lane *l, size_t pages, struct region **rp);
/* A freed extent out of the quarantine, into the free ones. */
void pool_add(struct lane *l, struct large_meta *m);
/* Without locks. */
void pool_purge(struct lane *l, int wait, int always);

#endif
