/* What the modes' allocators share (chunk.c, large.c, quarantine.c,
 * page_sample.c): object headers, large objects' regions, the quarantine,
 * the sampling of large allocations. */
#ifndef UKASAN_KASAN_SHARED_H
#define UKASAN_KASAN_SHARED_H

#include <stddef.h>
#include <stdint.h>

#include "../base/compiler.h"
#include "../base/leak_heap.h"
#include "../stack/stack.h"

/* The low bit marks page-backed objects; the states leave it clear. */
enum chunk_state { CHUNK_LIVE = 0xa4, CHUNK_QUARANTINED = 0x5a, CHUNK_LARGE = 0x01 };

/* 16 bytes just before every object, in its left redzone. */
struct chunk {
	depot_handle_t alloc_stack;
	uint32_t alloc_tid;
	uint32_t size;   /* the requested size; large objects keep it in struct large */
	uint8_t state;   /* enum chunk_state, | CHUNK_LARGE for page-backed objects */
	uint8_t api;     /* enum kfence_api: malloc, calloc, ...; see CHUNK_API */
	uint16_t offset; /* object - backing start, in 16-byte units (pages if large) */
};

/* The api byte: enum kfence_api in the low nibble; in the high one, for
 * an aligned new's object, 1 + log2 of its alignment (capped, as ASan's),
 * which the aligned delete must name; 0 for every other object. */
#define CHUNK_API(api)        ((api)&15)
#define CHUNK_ALIGN_CODE(api) ((unsigned)(api) >> 4)
static inline unsigned chunk_align_code(size_t align)
{
	if (!align)
		return 0;
	unsigned log = (unsigned)__builtin_ctzl(align);
	return log < 14 ? log + 1 : 15;
}
/* A leak scan's bits (base/leak_heap.h's enum leak_flags) in alloc_tid,
 * above any thread id (pid_max is 2^22). */
#define CHUNK_TID_MASK        0x1fffffffu
#define CHUNK_TID_FLAGS_SHIFT 29
#define CHUNK_TID_IGNORED     ((uint32_t)LEAK_IGNORED << CHUNK_TID_FLAGS_SHIFT)
/* Nonzero while this thread's allocations are not leaks (__lsan_disable). */
extern __thread int chunk_leaks_ignored __attribute__((tls_model("initial-exec")));

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
	uint32_t back;                  /* on an extent's last page: its pages */
	uint8_t flags;                  /* enum large_flags */
};

/* Objects from large.c's regions. colour: where in its first page the
 * object starts (0 or a cache line). The caller marks the object and the
 * redzones around it in the geometry given. */
struct large_extent {
	uintptr_t extent; /* its first page */
	uintptr_t guard;  /* its last page, the guard, ends at end */
	uintptr_t end;
	int zeroed;      /* the object's bytes read zero */
	int marks_clear; /* the extent's marks read 00 (released since last use) */
};
struct large_meta *large_alloc(size_t size, size_t align, uint16_t colour, struct large_extent *g);
struct large_meta *large_meta_of(uintptr_t p);
/* Set before the first large allocation: regions mapped PROT_MTE. */
extern RT_HIDDEN int large_mte;
struct large_meta *large_find(uintptr_t addr);
/* kmemleak: every live large object, with other threads stopped. */
void large_each_live(void (*fn)(struct large_meta *m, void *arg), void *arg);
/* For `ukasan leaks PID`: the regions' and records' place and layout. */
struct leak_remote_generic;
void large_leak_remote(struct leak_remote_generic *g);
/* The i-th region's span; 0 past the last. */
int large_region(int i, uintptr_t *base, size_t *len);
int large_owns(uintptr_t p);
/* The program mapped over or unmapped [addr, addr + len): pages of it in
 * regions leave the allocator for good. */
void large_taken(uintptr_t addr, size_t len);
/* Freed: poisoned, then waiting in the large objects' quarantine. */
void large_quarantine_put(struct large_meta *m);
void large_quarantine_drain(void);
size_t large_quarantine_bytes(void);
void large_purge(void);
/* Bytes of free extents whose shadow is still poisoned. */
size_t large_pool_dirty(void);
size_t large_pool_bytes(void);
struct large_stats {
	size_t regions, reserved, extents, shadow_released, purges, retired;
};
extern RT_HIDDEN struct large_stats large_stats;
void large_fork_prepare(void);
void large_fork_parent(void);
void large_fork_child(void);

/* kasan.stats=1: counted only then. */
struct heap_stats {
	size_t live_objects, live_bytes, redzone_bytes;
	size_t quarantined_objects, quarantined_bytes;
};
extern RT_HIDDEN struct heap_stats heap_stats;
static inline void count_stat(size_t *field, long delta)
{
	__atomic_add_fetch(field, (size_t)delta, __ATOMIC_RELAXED);
}

/* Sampling of large allocations (page_sample.c). */
int page_alloc_sampled(size_t size);
int unsampled_alloc(size_t size, size_t align, int zero, void **out);
size_t unsampled_size(uintptr_t p);
int unsampled_free(uintptr_t p);
/* kmemleak: every unsampled object, with other threads stopped. */
void unsampled_each(void (*fn)(uintptr_t p, size_t size, void *arg), void *arg);
void unsampled_leak_remote(struct leak_remote_generic *g);
struct sample_stats {
	size_t sampled, skipped;
};
extern RT_HIDDEN struct sample_stats sample_stats;
void page_sample_fork_prepare(void);
void page_sample_fork_parent(void);
void page_sample_fork_child(void);

/* A leak scan's view of what every mode's heap shares (heap_walk.c; the
 * calls of base/leak_heap.h): the index of a sorted span list holding a, or
 * -1; the live large objects, indexed at the start of a scan, which widens
 * [*lo, *hi) to their regions; the one whose requested bytes hold a (or
 * that starts at a, if of size 0); the object headers' kmemleak bits; and
 * the unsampled large objects, as roots. */
long walk_span_index(const struct leak_span *s, long n, uintptr_t a);
void walk_large_begin(uintptr_t *lo, uintptr_t *hi);
struct chunk *walk_large_find(uintptr_t a);
void walk_large_each(void (*fn)(struct leak_object *o, void *arg), void *arg);
void walk_describe(const struct leak_object *o, struct leak_object_info *info);
unsigned walk_flags_update(struct leak_object *o, unsigned set, unsigned clear);
void walk_ignore(struct chunk *c);
void walk_thread_ignore(int on);
void walk_unsampled_roots(void (*fn)(uintptr_t lo, uintptr_t hi, void *arg), void *arg);

/* Object headers (chunk.c). */
#define KASAN_GRANULE 8u
size_t chunk_size(const struct chunk *c);
/* A new object's header: its allocation stack, size and state. */
void chunk_fill(struct chunk *c, size_t size, int api, uint8_t large, uint16_t offset);
/* Its free record, with this thread's free stack. */
void chunk_fill_free(const struct chunk *c);
struct free_meta *chunk_free_meta(const struct chunk *c);
static inline uintptr_t chunk_object(const struct chunk *c)
{
	if (c->state & CHUNK_LARGE)
		return ((const struct large_meta *)c)->obj;
	return (uintptr_t)(c + 1);
}

/* The small objects' quarantine (quarantine.c): release is the mode's,
 * called for objects leaving it. */
/* thread_done: called after a drain (0), and as a thread that freed
 * objects ends (1), after its last batch joined the FIFO: what it releases
 * from then on (for a later destructor's frees) must not be kept by it. */
void quarantine_init(void (*release)(struct chunk *c), void (*thread_done)(int exiting));
void quarantine_put(struct chunk *c, size_t bytes);
void quarantine_drain(void);
void quarantine_fork_prepare(void);
void quarantine_fork_parent(void);
void quarantine_fork_child(void);

#endif
