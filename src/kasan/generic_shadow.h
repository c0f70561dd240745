/* How the generic heap's small objects show in the shadow, as pure
 * functions of shadow bytes already read: one reading of the format for
 * the in-process walk (generic_walk.c) and for `ukasan leaks PID`, which
 * applies it to a copy of another process's shadow (src/leaks/generic.c).
 * kasan/ owns the format; the headers' layout reaches the tool through
 * base/leak_remote.h, filled in from the real structures. */
#ifndef UKASAN_KASAN_GENERIC_SHADOW_H
#define UKASAN_KASAN_GENERIC_SHADOW_H

#include <stdint.h>

#include "../shadow/shadow.h"

/* Small objects are under a page, their alignment too; larger ones come
 * from large.c's regions. */
#define GENERIC_SMALL_MAX 4096u

/* A small object starts at the granule whose shadow byte s follows prev,
 * the end of its left redzone: s is 00 or a partial granule's. */
static inline int generic_starts_object(uint8_t prev, uint8_t s)
{
	return prev == SHADOW_SLAB_REDZONE && s < GRANULE;
}

/* An object of size 0 is all redzone in the shadow: a 16-aligned granule
 * inside a redzone may be one, its header decides. */
static inline int generic_may_start_empty(uint8_t prev, uint8_t s)
{
	return prev == SHADOW_SLAB_REDZONE && s == prev;
}

/* The shadow byte tail, of the granule holding an object's end (its
 * first byte past), as a live object's must be: a partial granule's, or
 * poisoned (the right redzone, or the program's own poisoning, as a
 * container's unused tail), never addressable. Memory that only looks
 * like a header (a fuzzer's repeated bytes) fails it. */
static inline int generic_end_ok(uintptr_t end, int8_t tail)
{
	return tail < 0 || ((end & (GRANULE - 1)) && tail == (int8_t)(end & (GRANULE - 1)));
}

#endif
