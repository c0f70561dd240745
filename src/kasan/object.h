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

/* At the start of a page-backed mapping. */
struct large {
	uint64_t size;
	uint64_t map_len;
};

/* What each mode does for the core (generic.c: with shadow bytes). */
#define KASAN_GRANULE 8u
void kasan_poison_redzone(uintptr_t addr, size_t size, int large);
void kasan_unpoison(uintptr_t addr, size_t size);
void kasan_poison_free(uintptr_t addr, size_t size, int large);
/* The memory goes back: its marks go with it. */
void kasan_release(uintptr_t addr, size_t size);
/* The header of the object that starts at p, live or quarantined; NULL for
 * anything else (interior, foreign, wild pointers). */
struct chunk *kasan_chunk_of(uintptr_t p);
/* For reports: the object nearest to addr, live or quarantined. */
struct chunk *kasan_find_chunk(uintptr_t addr);
size_t chunk_size(const struct chunk *c);
struct free_meta *chunk_free_meta(const struct chunk *c);
static inline uintptr_t chunk_object(const struct chunk *c)
{
	return (uintptr_t)(c + 1);
}

/* Quarantine. */
void quarantine_put(struct chunk *c, size_t bytes);
void quarantine_release_chunk(struct chunk *c);

#endif
