/* Between the tag-based modes' core (tags.c), their back ends (sw_tags.c,
 * hw_tags.c) and their reports (report_tags.c). */
#ifndef UKASAN_KASAN_TAGS_H
#define UKASAN_KASAN_TAGS_H

#include <stddef.h>
#include <stdint.h>

#include "../base/compiler.h"
#include "../stack/stack.h"

struct chunk;
struct kasan_report_info;

/* The tag-based modes (tags.c): objects carry a random tag in the
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
	/* Optional: memory going back loses its tags; checks a report turned
	 * off come back. */
	void (*release)(uintptr_t addr, size_t size);
	void (*rearm)(void);
};
extern RT_HIDDEN const struct tag_backend *tag_backend;
/* The back end's set-up calls it once it can run. */
void tags_init(const struct tag_backend *b);

/* The kasan_ops both back ends share. */
void *tags_malloc(size_t size, size_t align, int api, int zero);
struct chunk *tags_retire(uintptr_t p, struct chunk *c);
void tags_free(struct chunk *c, uintptr_t p);
struct chunk *tags_chunk_of(uintptr_t p);
int tags_owns(uintptr_t p);
void tags_release(uintptr_t addr, size_t size);
int tags_check_range(uintptr_t addr, size_t size, int write, uintptr_t ip);
/* The same, for checks whose frames are not all ours: the stack starts at
 * ip. */
int tags_check_range_from(uintptr_t addr, size_t size, int write, uintptr_t ip);
int tags_has_metadata(uintptr_t addr);
uintptr_t tags_first_bad(uintptr_t addr, size_t size);
const char *tags_bug_type(uintptr_t addr, size_t size, uintptr_t bad);
void tags_describe(struct kasan_report_info *r);
int tags_fetch_row(uintptr_t row, uint8_t out[16]);
/* In a back end's struct kasan_ops: what tags.c does for both. */
#define TAGS_OPS                                                                                   \
	.malloc = tags_malloc, .retire = tags_retire, .free = tags_free,                           \
	.chunk_of = tags_chunk_of, .release = tags_release, .check_range = tags_check_range,       \
	.has_metadata = tags_has_metadata, .first_bad = tags_first_bad, .bug_type = tags_bug_type, \
	.describe = tags_describe, .row_granule = TAG_GRANULE_SIZE, .fetch_row = tags_fetch_row

/* One allocation or free, as the kernel's kasan_stack_ring_entry. */
struct ring_entry {
	uintptr_t ptr; /* tagged */
	size_t size;
	depot_handle_t stack;
	uint32_t tid;
	uint8_t is_free;
	uint8_t api;
};

/* Newest first; fn returns nonzero to stop. */
void tags_ring_walk(int (*fn)(const struct ring_entry *e, void *arg), void *arg);

/* Whether the access passes, without reporting. */
int tags_access_ok(uintptr_t addr, size_t size);

struct chunk *tags_object_at(uintptr_t addr);

/* tags_walk.c: each back end's heap as a leak scan reads it. */
struct leak_heap;
extern RT_HIDDEN const struct leak_heap sw_tags_leak_heap;
extern RT_HIDDEN const struct leak_heap hw_tags_leak_heap;

/* sw_globals.c: clang's tagged globals. Every loaded module's, at set-up;
 * the one holding addr (a later dlopen's, from its __hwasan_init call). */
void sw_globals_init(void);
void sw_globals_module(uintptr_t addr);

#endif
