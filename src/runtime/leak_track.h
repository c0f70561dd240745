/* kmemleak under the preload: a registry of the live objects of whatever
 * allocator the program uses (leak_track.c), shown to kmemleak as a heap
 * (base/leak_heap.h). Started by the composition root only when kmemleak
 * was set on in a program not built with ukasan-cc; until then every call
 * here is skipped by the entry points' fast paths. */
#ifndef UKASAN_RUNTIME_LEAK_TRACK_H
#define UKASAN_RUNTIME_LEAK_TRACK_H

#include <stddef.h>

#include "../base/compiler.h"

struct leak_heap;

/* Set once started: the allocation hooks (alloc_api.c) call in. */
extern RT_HIDDEN int leak_track_on;
/* Starts tracking (after options are read): the heap to hand to kmemleak. */
const struct leak_heap *leak_track_start(void);
void leak_track_alloc(const void *p, size_t size);
void leak_track_free(const void *p);
/* The generic mode's heap is in force: where `ukasan leaks PID` reads it
 * (base/leak_remote.h). */
void leak_track_note_generic(void);
/* Around fork: no shard lock is left held in the child. */
void leak_track_fork_prepare(void);
void leak_track_fork_done(void);

#endif
