/* The generic-mode allocator: every object between redzones, freed objects
 * held in a quarantine, allocation and free stacks in the depot. */
#ifndef UKASAN_ALLOC_KASAN_ALLOC_H
#define UKASAN_ALLOC_KASAN_ALLOC_H

#include <stddef.h>
#include <stdint.h>

#include "../report/stack.h"

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

void *kasan_malloc(size_t size, size_t align, int api, int zero);
void kasan_free(void *p);
void *kasan_realloc(void *p, size_t size, int api);
/* (size_t)-1 when p is not the start of a live object. */
size_t kasan_usable_size(const void *p);

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
void quarantine_fork_prepare(void);
void quarantine_fork_parent(void);
void quarantine_fork_child(void);

#endif
