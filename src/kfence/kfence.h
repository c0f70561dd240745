/* KFENCE: sampled allocations on their own pages between guard pages. */
#ifndef UKASAN_KFENCE_KFENCE_H
#define UKASAN_KFENCE_KFENCE_H

#include <stddef.h>
#include <stdint.h>

#include "../base/compiler.h"
#include "../platform/lock.h"
#include "../stack/stack.h"

enum kfence_api { API_MALLOC, API_CALLOC, API_REALLOC, API_MEMALIGN, API_NEW, API_NEW_ARRAY };

enum kfence_state { OBJ_UNUSED, OBJ_ALLOCATED, OBJ_FREED };

struct kfence_track {
	int tid, cpu;
	uint64_t ns;
	depot_handle_t stack;
};

struct kfence_meta {
	/* Held while the fields change, and for snapshots; not in
	 * platform/lock.h's fork order. */
	struct spinlock lock;
	uintptr_t addr;
	size_t size;
	int state;
	int api;
	uint32_t cover_hash;
	int oob_written;     /* generic mode reported a write past it: skip the canary check */
	uint32_t next;       /* FIFO freelist link: index + 1, 0 = end */
	unsigned leak_flags; /* kmemleak's bits (base/leak_heap.h), while allocated */
	struct kfence_track alloc, free;
};

enum kfence_counter {
	KF_ALLOCATED,
	KF_ALLOCS,
	KF_FREES,
	KF_ZOMBIES,
	KF_BUGS,
	KF_SKIP_INCOMPAT,
	KF_SKIP_CAPACITY,
	KF_SKIP_COVERED,
	KF_NCOUNTERS
};

/* The pool is one reservation: the kernel's small slots, then large ones.
 *   small: two guard pages, then per slot one object page and one guard;
 *   large: per slot large_size bytes of object pages, then one guard.
 * Slots are numbered in address order, small first: slot i's neighbours
 * are i - 1 and i + 1 in either part. */
struct kfence_pool {
	uintptr_t base;
	size_t size; /* the whole pool, small and large parts */
	size_t page;
	unsigned num_objects; /* slots of both kinds: meta[num_objects] */
	unsigned num_small;   /* slots 0 .. num_small - 1 take objects of one page */
	uintptr_t large_base; /* slot num_small + j at large_base + j * large_span */
	size_t large_size;    /* object bytes a large slot holds, page aligned */
	size_t large_span;    /* large_size and the guard page after it */
	struct kfence_meta *meta;
	/* Per slot, what a report opened so the access could go on: */
	unsigned char *slot_open;
	long counters[KF_NCOUNTERS];
};

extern RT_HIDDEN struct kfence_pool kfence;

static inline int kfence_owns(const void *p)
{
	return (uintptr_t)p - kfence.base < kfence.size;
}

/* The pool as a leak scan reads it (walk.c; base/leak_heap.h). With
 * candidates, its live objects are leak candidates, each reported with its
 * allocation stack when nothing points to it; without, they are only read
 * as roots (where another heap tracks them, or none can leak). */
struct leak_heap;
const struct leak_heap *kfence_leak_heap(int candidates);
/* The slot whose object part or guard page holds a pool address; -1 for
 * the two guard pages before slot 0 (pool.c). */
long kfence_slot_at(uintptr_t addr);
/* The flags a new object starts with (walk.c: __lsan_disable's count). */
unsigned kfence_leak_new_flags(void);

/* Objects live in the pool now (a racy count: for a check at exit). */
static inline long kfence_live_objects(void)
{
	return __atomic_load_n(&kfence.counters[KF_ALLOCATED], __ATOMIC_RELAXED);
}

/* The byte an object's page holds around the object, written at allocation
 * and checked at free and in reports. As the kernel's, it varies with the
 * address's low three bits: a stray write of a repeated constant is less
 * likely to match it. */
static inline unsigned char kfence_canary(uintptr_t a)
{
	return (unsigned char)(0xaa ^ (a & 7));
}

/* The allocation fast path is one thread-local decrement. */
extern __thread long kfence_countdown __attribute__((tls_model("initial-exec")));
int kfence_sample_slow(void);
/* Sampling may begin (the pool is ready, or KFENCE is off). */
void kfence_sample_start(int delay_first);
void kfence_sample_after_fork_child(void);

static inline int kfence_should_sample(void)
{
	if (likely(--kfence_countdown > 0))
		return 0;
	return kfence_sample_slow();
}

/* What the mode above does with a KFENCE object's page (generic KASAN: the
 * rest of the page is redzone in its shadow), set by the composition root:
 * KFENCE itself knows no KASAN. */
struct kfence_hooks {
	void (*object_placed)(uintptr_t page, size_t page_size, uintptr_t obj, size_t size);
	void (*object_freed)(uintptr_t page, size_t page_size);
	/* Open the first gate one interval after start, not at once. */
	int delay_first_sample;
};
void kfence_init(const struct kfence_hooks *hooks);
void *kfence_alloc(size_t size, size_t align, int api, int zero);
void kfence_free(void *p);
size_t kfence_size(const void *p); /* (size_t)-1 if p is not a live object */
void kfence_after_fork_prepare(void);
void kfence_after_fork_parent(void);
void kfence_after_fork_child(void);

/* Covered-stack filter (kfence.skip_covered_thresh). */
int kfence_covered(uint32_t hash);
void kfence_cover(uint32_t hash, int delta);
uint64_t kfence_random(void);

/* Reports. */
enum kfence_error {
	KF_ERR_OOB,
	KF_ERR_UAF,
	KF_ERR_CORRUPTION,
	KF_ERR_INVALID,
	KF_ERR_INVALID_FREE
};
/* meta is a snapshot (or NULL); idx its slot. Without uctx the stack is
 * captured here, from ip on when ip is set. */
void kfence_report(enum kfence_error type, uintptr_t addr, int is_write, const void *uctx,
                   uintptr_t ip, const struct kfence_meta *meta, long idx);
/* Generic mode: a check found addr in a KFENCE page but outside its object
 * (the page's shadow is redzone around the object). Reports it as KFENCE's
 * out-of-bounds access and returns 1; 0 if addr is not such an access. */
int kfence_report_access(uintptr_t addr, int is_write, uintptr_t ip);
void kfence_print_stats(void);

#endif
