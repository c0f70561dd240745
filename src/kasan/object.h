/* The generic-mode allocator: every object between redzones, freed objects
 * held in a quarantine, allocation and free stacks in the depot. */
#ifndef UKASAN_ALLOC_KASAN_ALLOC_H
#define UKASAN_ALLOC_KASAN_ALLOC_H

#include <stddef.h>
#include <stdint.h>

#include "../stack/stack.h"

/* The low bit marks page-backed objects; the states leave it clear. */
enum chunk_state { CHUNK_LIVE = 0xa4, CHUNK_QUARANTINED = 0x5a, CHUNK_LARGE = 0x01 };

/* 16 bytes just before every object, in its left redzone. */
struct chunk {
	depot_handle_t alloc_stack;
	uint32_t alloc_tid;
	uint32_t size;   /* the requested size; large objects keep it in struct large */
	uint8_t state;   /* enum chunk_state, | CHUNK_LARGE for page-backed objects */
	uint8_t api;     /* enum kfence_api: malloc, calloc, ... */
	uint16_t offset; /* object - backing start, in 16-byte units (pages if large) */
};

/* Written into a freed object (or its right redzone if smaller than 16). */
struct free_meta {
	struct chunk *next; /* quarantine FIFO link */
	depot_handle_t free_stack;
	uint32_t free_tid;
};

/* A large object's record, in its region's side table (large.c): the
 * chunk header first, so the core handles both kinds alike. */
struct large_meta {
	struct chunk c;
	struct free_meta fm;
	uint64_t size;
	uintptr_t obj;
	struct large_meta *next, *prev; /* a free extent's, in its bin */
	uint32_t pages;                 /* of the extent, its guard page included */
	uint8_t flags;                  /* enum large_flags */
};

/* Objects from large.c's regions. colour: where in its first page the
 * object starts (0 or a cache line); *zeroed: whether its bytes are zero. */
struct large_meta *large_alloc(size_t size, size_t align, uint16_t colour, int *zeroed);
struct large_meta *large_meta_of(uintptr_t p);
/* Set before the first large allocation: regions mapped PROT_MTE. */
extern int large_mte;
struct large_meta *large_find(uintptr_t addr);
int large_owns(uintptr_t p);
/* Freed: poisoned, then waiting in the large objects' quarantine. */
void large_quarantine_put(struct large_meta *m);
void large_quarantine_drain(void);
void large_purge(void);
/* Bytes of free extents whose shadow is still poisoned. */
size_t large_pool_dirty(void);
size_t large_pool_bytes(void);
struct large_stats {
	size_t regions, reserved, extents, shadow_released, purges;
};
extern struct large_stats large_stats;
void large_fork_prepare(void);
void large_fork_parent(void);
void large_fork_child(void);

/* kasan.stats=1: counted only then. */
struct heap_stats {
	size_t live_objects, live_bytes, redzone_bytes;
	size_t quarantined_objects, quarantined_bytes;
};
extern struct heap_stats heap_stats;
static inline void count_stat(size_t *field, long delta)
{
	__atomic_add_fetch(field, (size_t)delta, __ATOMIC_RELAXED);
}

/* Sampling of large allocations (page_sample.c). */
int page_alloc_sampled(size_t size);
int unsampled_alloc(size_t size, size_t align, int zero, void **out);
size_t unsampled_size(uintptr_t p);
int unsampled_free(uintptr_t p);
struct sample_stats {
	size_t sampled, skipped;
};
extern struct sample_stats sample_stats;
void page_sample_fork_prepare(void);
void page_sample_fork_parent(void);
void page_sample_fork_child(void);

/* What each mode does for the core: common.c passes these on to generic.c
 * (shadow bytes) or tags.c (memory tags). */
#define KASAN_GRANULE 8u
void kasan_poison_redzone(uintptr_t addr, size_t size, int large);
void kasan_unpoison(uintptr_t addr, size_t size);
/* The same, over shadow known to be resident: cleared, never released. */
void kasan_unpoison_resident(uintptr_t addr, size_t size);
/* The memory goes back: its marks go with it. */
void kasan_release(uintptr_t addr, size_t size);
/* The header of the object that starts at p, live or quarantined; NULL for
 * anything else (interior, foreign, wild pointers). */
struct chunk *kasan_chunk_of(uintptr_t p);
/* For reports: the object nearest to addr, live or quarantined. */
struct chunk *kasan_find_chunk(uintptr_t addr);
size_t chunk_size(const struct chunk *c);
/* A new object's header: its allocation stack, size and state. */
void chunk_fill(struct chunk *c, size_t size, int api, uint8_t large, uint16_t offset);
struct free_meta *chunk_free_meta(const struct chunk *c);
static inline uintptr_t chunk_object(const struct chunk *c)
{
	if (c->state & CHUNK_LARGE)
		return ((const struct large_meta *)c)->obj;
	return (uintptr_t)(c + 1);
}

/* The generic mode's (generic.c). */
void generic_poison_redzone(uintptr_t addr, size_t size, int large);
void generic_unpoison(uintptr_t addr, size_t size);
void generic_unpoison_resident(uintptr_t addr, size_t size);
void generic_poison_free(uintptr_t addr, size_t size, int large);
void generic_release(uintptr_t addr, size_t size);
struct chunk *generic_chunk_of(uintptr_t p);
struct chunk *generic_find_chunk(uintptr_t addr);
int generic_check_range(uintptr_t addr, size_t size, int write, uintptr_t ip);
void generic_init(void);
void generic_thread_stack_clear(void);

/* The tag-based modes' (tags.c): objects carry a random tag in the
 * pointer's top byte and the same tag on their memory; how memory is
 * tagged is the back end's (sw_tags.c: a shadow byte per 16 bytes;
 * hw_tags.c: MTE, the CPU's own 4-bit tags). */
#define TAG_GRANULE_SIZE 16u
struct tag_backend {
	uint8_t invalid;   /* freed memory: the kernel's KASAN_TAG_INVALID */
	uint8_t meta;      /* object headers, which the runtime reads untagged */
	uint8_t match_all; /* a pointer tag that passes every check; 0: none */
	uint8_t (*random_tag)(void);
	void (*set)(uintptr_t addr, size_t size, uint8_t tag); /* granule-aligned addr */
	/* A new object's granules (its size rounded up; the last one a short
	 * granule where the back end has them). */
	void (*mark_object)(uintptr_t obj, size_t size, uint8_t tag);
	/* The tag an access must carry to pass in addr's granule; for reports,
	 * get_raw: what the tag storage holds (a short granule's length). */
	uint8_t (*get)(uintptr_t addr);
	uint8_t (*get_raw)(uintptr_t addr);
	/* Optional: the first granule of the untagged range [addr, addr+size)
	 * that an access tagged tag may not touch, or 0. */
	uintptr_t (*mismatch)(uintptr_t addr, size_t size, uint8_t tag);
	/* Where small objects' chunks come from, and whether a small object
	 * of theirs may start at addr (so its header may be read). */
	void *(*chunk_alloc)(size_t align, size_t size);
	void (*chunk_free)(void *p);
	int (*chunk_owns)(uintptr_t addr);
};
extern const struct tag_backend *tag_backend;
void *tags_malloc(size_t size, size_t align, int api, int zero);
void tags_free(uintptr_t p, uintptr_t ip);
struct chunk *tags_chunk_of(uintptr_t p);
/* Whether p is in memory the tag modes' allocator hands out. */
int tags_owns(uintptr_t p);
int tags_check_range(uintptr_t addr, size_t size, int write, uintptr_t ip);
/* The same, for checks whose frames are not all ours: the stack starts at
 * ip. */
int tags_check_range_from(uintptr_t addr, size_t size, int write, uintptr_t ip);
void tags_release(uintptr_t addr, size_t size);
void tags_mark(uintptr_t addr, size_t size, uint8_t tag);

/* Quarantine. */
void quarantine_put(struct chunk *c, size_t bytes);
void quarantine_release_chunk(struct chunk *c);

#endif
