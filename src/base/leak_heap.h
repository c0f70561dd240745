/* What a heap shows a leak scan: the contract between kmemleak (src/kmemleak/,
 * which scans) and the allocators whose objects it scans (KASAN's generic
 * heap in kasan/generic_walk.c, the tag modes' in kasan/tags_walk.c,
 * KFENCE's pool in kfence/walk.c, the preload's tracking in
 * runtime/leak_track.c). Only
 * declarations, so that an allocator of any layer can implement it without
 * reaching up to kmemleak, and kmemleak reaches no allocator but through it;
 * the composition root (runtime/) hands kmemleak the heaps in force.
 *
 * The scan is conservative, as the kernel's kmemleak: every aligned word of
 * the roots that points anywhere into a live object's requested bytes
 * reaches that object, whose own words are then scanned in turn. A heap
 * keeps, for each object, three bits kmemleak owns (enum leak_flags), and
 * needs no registry of its objects beyond what it keeps anyway.
 *
 * Unless said otherwise, each call is made during a scan, from the one
 * thread scanning, with every other thread stopped: no lock may be taken
 * (a stopped thread may hold it), nothing allocated but by mapping memory,
 * and a heap's own bookkeeping reads as it was when the threads stopped. */
#ifndef UKASAN_BASE_LEAK_HEAP_H
#define UKASAN_BASE_LEAK_HEAP_H

#include <stddef.h>
#include <stdint.h>

/* A heap's record of one live object, opaque to kmemleak; aligned to 4
 * bytes at least (kmemleak keeps which heap an object is of in the two low
 * bits of its work list's entries). */
struct leak_object;

/* kmemleak's bits, kept by the heap in each object's record. */
enum leak_flags {
	LEAK_MARKED = 1,   /* reached, during a scan; cleared by its last pass */
	LEAK_IGNORED = 2,  /* not a leak: ignored by the program, or allocated while
	                    * leak checks were off for its thread; its words are roots */
	LEAK_REPORTED = 4, /* reported already: each leak is reported once */
};

struct leak_object_info {
	uintptr_t base; /* its first byte */
	size_t size;    /* the bytes the program asked for */
	uint32_t stack; /* its allocation stack, a stack depot handle (stack/stack.h) */
	uint32_t tid;   /* the thread that allocated it */
	unsigned flags; /* enum leak_flags */
};

struct leak_span {
	uintptr_t start, end;
};

struct leak_heap {
	const char *name;
	/* First of a scan. spans: the process's private writable mappings,
	 * sorted (where an allocator built on another's memory keeps its
	 * objects: glibc's arenas). For each, first[i] gets where the memory
	 * of the first object the heap has in it starts (its record included,
	 * if kept in front of it), or 0 if none; *bounds gets a
	 * range that holds every object of the heap ({0, 0} if it has none).
	 * 0, or -1 when the heap cannot be scanned. May be NULL, for a heap
	 * that only adds roots. */
	int (*scan_begin)(const struct leak_span *spans, long n, uintptr_t *first,
	                  struct leak_span *bounds);
	/* Last of a scan, whether it was made or a fault ended it (and even
	 * when scan_begin was not called): undoes what scan_begin set up
	 * (hardware tags turn the scanning thread's tag checks off for the
	 * scan, which reads every object whatever its tag). May be NULL. */
	void (*scan_end)(void);
	/* Pointers to its objects carry a tag in the top byte (arm64's
	 * top-byte-ignore): the scan clears the top byte of every word before
	 * looking it up, as the kernel's kmemleak resets a KASAN tag, so a
	 * word keeps an object whatever its tag. */
	int tagged;
	/* The live object whose requested bytes hold addr (or that starts at
	 * addr, if of size 0), or NULL. addr lies inside the bounds. Called for
	 * every word that looks like a pointer into the heap: the scan's
	 * inner loop. NULL for a heap that only adds roots. */
	struct leak_object *(*find)(uintptr_t addr);
	/* Calls fn on every live object, each once. */
	void (*each_live)(void (*fn)(struct leak_object *o, void *arg), void *arg);
	void (*describe)(const struct leak_object *o, struct leak_object_info *info);
	/* Sets and clears kmemleak's bits on o; returns them as they were. */
	unsigned (*flags_update)(struct leak_object *o, unsigned set, unsigned clear);
	/* Calls fn on memory to scan as roots, not as objects: memory the heap
	 * holds live pointers in that the process's mappings do not show as
	 * roots (the fake stacks of stack-use-after-return), objects it does
	 * not track (a heap's unsampled large ones), objects it tracks but
	 * whose pages a report may have closed (a copy is passed). fn reads
	 * only what the mappings say is readable. May be NULL. */
	void (*each_root)(void (*fn)(uintptr_t lo, uintptr_t hi, void *arg), void *arg);
	/* Any time, from any thread: the live object at p is not a leak (and
	 * its words are roots); 0 if p is the start of no live object here. */
	int (*ignore)(uintptr_t p);
	/* Any time: this thread's new objects are not leaks while the count
	 * of ons exceeds the count of offs (__lsan_disable, __lsan_enable). */
	void (*thread_ignore)(int on);
};

/* glibc's malloc puts a chunk's header (16 bytes, 16-aligned) right after
 * the bytes it can give, and lends its first 8 to the object before: a
 * 40-byte object's last 8 bytes are the next chunk's header, which the
 * arena's own pointers (its top chunk, its bins) point at while that next
 * chunk is free. Such a word is no reference to the object. It is one when
 * the next chunk holds a live object: the arena keeps no pointer to the
 * header of a chunk in use, and a structure whose last member is a list
 * node (PostgreSQL's background workers) is reached only by a pointer
 * there. So with glibc's chunks, a pointer a to a 16-aligned place in the
 * last 8 bytes of the live object [base, base + size) is the arena's, not
 * a reference, unless live_at (the heap's lookup: a live object starts
 * exactly there) says the next chunk is in use. The heaps that read
 * glibc's chunks from the preload's registry share it: in the process
 * (runtime/leak_track.c) and from outside (leaks/objects.c). */
static inline int leak_glibc_arena_word(uintptr_t a, uintptr_t base, size_t size,
                                        int (*live_at)(uintptr_t p))
{
	return !(a & 15) && size - (a - base) <= 8 && !live_at(a + 16);
}

#endif
