/* The one interface every KASAN mode implements (the kernel declares the
 * same hooks for each mode in mm/kasan/kasan.h). The core (common.c) picks a
 * mode once at start and calls it only through kasan_ops; the report
 * pipeline (report.c) asks it for the parts of a report only the mode's
 * metadata can tell. Adding a mode is filling one of these. */
#ifndef UKASAN_KASAN_MODE_H
#define UKASAN_KASAN_MODE_H

#include <stddef.h>
#include <stdint.h>

#include "../base/compiler.h"

struct chunk;
struct leak_heap;
struct kasan_report_info;

struct kasan_ops {
	const char *name; /* generic, sw_tags, hw_tags: reports name it */
	/* The allocator: the core's kasan_malloc and kasan_free pass on. */
	void *(*malloc)(size_t size, size_t align, int api, int zero);
	/* A free, in ASan's order (its Deallocate): retire finds the object
	 * that starts at p once (c: the caller found it already) and marks it
	 * freed with one compare-and-swap, or reports the double or invalid
	 * free and returns NULL; then the core makes the free's checks
	 * (alloc_checks.c), while no other free can take the object; then free
	 * marks it and sends it to the quarantine. */
	struct chunk *(*retire)(uintptr_t p, struct chunk *c);
	void (*free)(struct chunk *c, uintptr_t p);
	/* The header of the object that starts at p (generic: also while it
	 * waits in the quarantine); NULL for anything else. */
	struct chunk *(*chunk_of)(uintptr_t p);
	/* Whether p is in memory this mode hands out; NULL: all of it. */
	int (*owns)(uintptr_t p);
	/* New objects start filled with ukasan.malloc_fill_byte (generic: its
	 * programs are built as ASan's, and ASan fills them). */
	int fill_new;

	/* Marking, for what large.c keeps for every mode: a region's first
	 * page, and free extents' marks going back. NULL: nothing to do. */
	void (*poison_redzone)(uintptr_t addr, size_t size, int large);
	void (*release)(uintptr_t addr, size_t size);
	/* The program unmapped [addr, addr+len), or a thread's stack starts or
	 * ends: marks of memory that is not ours go. */
	void (*forget_range)(uintptr_t addr, size_t len);
	void (*thread_stack_clear)(void);
	/* KFENCE's objects, where the mode must see their pages (generic). */
	void (*kfence_placed)(uintptr_t page, size_t page_size, uintptr_t obj, size_t size);
	void (*kfence_freed)(uintptr_t page, size_t page_size);

	/* The checked-range ABI the interceptors call; 0 when bad. */
	int (*check_range)(uintptr_t addr, size_t size, int write, uintptr_t ip);

	/* Reports (the kernel's kasan_complete_mode_report_info and
	 * kasan_metadata_fetch_row). */
	int (*has_metadata)(uintptr_t addr);
	uintptr_t (*first_bad)(uintptr_t addr, size_t size);
	const char *(*bug_type)(uintptr_t addr, size_t size, uintptr_t bad);
	/* Fills what addr belongs to (object, variable, frame) and the tags. */
	void (*describe)(struct kasan_report_info *r);
	/* The memory table: bytes of metadata per row, one per granule of
	 * row_granule bytes; 0 when the row cannot be read. */
	unsigned row_granule;
	int (*fetch_row)(uintptr_t row, uint8_t out[16]);

	/* Optional: a write a check reported, before the report (generic:
	 * what it would overwrite of glibc's heap is kept). */
	void (*reported_write)(uintptr_t addr, size_t size);
	/* Optional: checks a report turned off come back (hardware tags). */
	void (*rearm)(void);
	void (*fork_prepare)(void);
	void (*fork_parent)(void);
	void (*fork_child)(void);
	/* kasan.stats' line for the mode's metadata; NULL: the shadow's. */
	void (*print_stats)(void);
	/* The heap as a leak scan reads it (base/leak_heap.h); NULL: no leak
	 * checks in this mode. */
	const struct leak_heap *leak_heap;
};

/* The mode in force, set once by kasan_init; NULL while KASAN is off. */
extern RT_HIDDEN const struct kasan_ops *kasan_ops;

/* Module constructors of instrumented code built for mode ops call it:
 * code built for another mode than the one running cannot work. */
void kasan_claim(const struct kasan_ops *ops);

/* The back ends' set-up: their ops, or NULL when they cannot run (they say
 * why). */
const struct kasan_ops *generic_init(void);
const struct kasan_ops *sw_tags_init(void);
const struct kasan_ops *hw_tags_init(void);

#endif
