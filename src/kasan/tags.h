/* Between the tag-based modes' core (tags.c), their back ends and their
 * reports (report_tags.c). */
#ifndef UKASAN_KASAN_TAGS_H
#define UKASAN_KASAN_TAGS_H

#include <stddef.h>
#include <stdint.h>

#include "../stack/stack.h"

/* One allocation or free, as the kernel's kasan_stack_ring_entry. */
struct ring_entry {
	uintptr_t ptr; /* tagged */
	size_t size;
	depot_handle_t stack;
	uint32_t tid;
	uint8_t is_free;
	uint8_t api;
};

void tags_ring_init(void);
/* Newest first; fn returns nonzero to stop. */
void tags_ring_walk(int (*fn)(const struct ring_entry *e, void *arg), void *arg);

/* The first granule of [addr, addr+size) whose tag differs from the
 * pointer's (untagged), or addr untagged when none does. */
uintptr_t tags_first_bad(uintptr_t addr, size_t size);
/* Whether the access passes, without reporting. */
int tags_access_ok(uintptr_t addr, size_t size);

struct chunk;
struct chunk *tags_object_at(uintptr_t addr);

/* report.c */
void tags_report_free(uintptr_t p, const char *bug_type, uintptr_t ip);
/* report_tags.c */
const char *tags_bug_type(uintptr_t addr, size_t size);
void tags_print_tags(uintptr_t addr, uintptr_t bad);
void tags_describe(uintptr_t addr);
void tags_print_memory_state(uintptr_t bad);

/* The back ends' set-up: 0 when the mode runs. */
int sw_tags_init(void);
int hw_tags_init(void);
/* Hardware tags: checks turned off after a report come back (multi-shot). */
void hw_tags_rearm(void);
void hw_tags_fork_prepare(void);
void hw_tags_fork_parent(void);
void hw_tags_fork_child(void);

/* sw_globals.c: clang's tagged globals. Every loaded module's, at set-up;
 * the one holding addr (a later dlopen's, from its __hwasan_init call). */
void sw_globals_init(void);
void sw_globals_module(uintptr_t addr);

#endif
