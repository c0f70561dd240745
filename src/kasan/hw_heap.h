/* Hardware tag mode's small-object heap: blocks of 16..HW_HEAP_MAX bytes in
 * PROT_MTE memory, which glibc's heap is not. It hands out untagged
 * addresses and never sets a tag: memory never used before has tag 0 in
 * every granule; a block freed and handed out again keeps whatever tags
 * its caller left (the caller retags it on reuse). Never calls malloc. */
#ifndef UKASAN_KASAN_HW_HEAP_H
#define UKASAN_KASAN_HW_HEAP_H

#include <stddef.h>
#include <stdint.h>

/* The largest block: a 4095-byte object and its 16-byte header granule,
 * rounded to the granule. */
#define HW_HEAP_MAX 4112

/* Freed bytes a size class keeps queued before it reuses the oldest. */
#define HW_HEAP_REUSE_BYTES (256u << 10)

/* A block of at least size bytes (rounded up to the block's size class),
 * its address a multiple of align (a power of two up to 4096; 16 at least):
 * NULL when size or align is out of range, or memory ran out. A block
 * freed returns to the tail of its class's queue and is handed out again
 * only once the queue holds HW_HEAP_REUSE_BYTES, oldest first, so that a
 * use after free stays detectable (a retagged slot) for as long as it can. */
void *hw_heap_alloc(size_t size, size_t align);
/* Give back a block hw_heap_alloc returned (tagged or not). 0 on success;
 * -1, changing nothing, when p is not the start of a block that is
 * allocated now: a double or invalid free. Safe against racing frees of
 * the same block: exactly one of them succeeds. */
int hw_heap_free(void *p);
/* Whether p (tagged or not) lies in the heap's address space. */
int hw_heap_owns(uintptr_t p);

/* The block p (tagged or not) points into, allocated or not. */
struct hw_heap_block {
	uintptr_t start;
	size_t size; /* the size class: the block's usable size */
	int allocated;
};
/* 0 and *b filled in; -1 when p is in no block (not ours, or in a part of
 * the heap not handed out yet). Takes no lock: for reports. */
int hw_heap_block_of(uintptr_t p, struct hw_heap_block *b);
/* The usable size of the block p points into; 0 when there is none. */
size_t hw_heap_size(const void *p);

/* For a leak scan (kasan/tags_walk.c), with every other thread stopped:
 * fn on each allocated block; the i-th region's memory made usable so far
 * (0 past the last region). */
void hw_heap_each_allocated(void (*fn)(uintptr_t start, size_t size, void *arg), void *arg);
int hw_heap_region(int i, uintptr_t *base, size_t *len);

struct hw_heap_stats {
	size_t reserved; /* address space reserved (PROT_NONE until used) */
	size_t mapped;   /* of it, made PROT_MTE | read | write, 4 MiB at a time */
	size_t slabs;    /* 64 KiB slabs given to size classes */
	size_t in_use;   /* bytes of allocated blocks (by size class) */
	size_t queued;   /* bytes of freed blocks waiting in the queues */
	size_t allocs, frees;
};
/* Read without locks: a snapshot that may be a moment inconsistent. */
void hw_heap_get_stats(struct hw_heap_stats *s);

/* Around fork: the parent holds every lock across it, the child forgets
 * them (their holders are gone). */
void hw_heap_fork_prepare(void);
void hw_heap_fork_parent(void);
void hw_heap_fork_child(void);

#endif
