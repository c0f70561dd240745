/* Between the generic mode's files: its checks (generic.c), allocator
 * (generic_alloc.c, generic_heap.c), compiler ABI (generic_abi.c, fake_stack.c) and
 * report parts (report_generic.c). */
#ifndef UKASAN_KASAN_GENERIC_H
#define UKASAN_KASAN_GENERIC_H

#include <stddef.h>
#include <stdint.h>

#include "../base/compiler.h"

struct chunk;
struct leak_heap;
struct kasan_report_info;

extern RT_HIDDEN const struct kasan_ops generic_ops;

int generic_check_range(uintptr_t addr, size_t size, int write, uintptr_t ip);
void generic_thread_stack_clear(void);
void generic_forget_range(uintptr_t addr, size_t len);
void generic_kfence_placed(uintptr_t page, size_t page_size, uintptr_t obj, size_t size);
void generic_kfence_freed(uintptr_t page, size_t page_size);

/* The allocator's (generic_alloc.c); its set-up, once the shadow is. */
void generic_alloc_init(void);
void *generic_malloc(size_t size, size_t align, int api, int zero);
struct chunk *generic_retire(uintptr_t p, struct chunk *c);
void generic_free(struct chunk *c, uintptr_t p);
struct chunk *generic_chunk_of(uintptr_t p);
/* Live small objects of size 0: all redzone in the shadow, so kmemleak
 * looks for them only while there are any. */
extern RT_HIDDEN long generic_empty_live;
/* For the leak scan: where glibc's next chunk starts, after small c. */
uintptr_t generic_next_glibc_chunk(const struct chunk *c);
/* For reports: the object addr belongs to, or whose redzone it is in. */
struct chunk *generic_find_chunk(uintptr_t addr);

/* glibc's heap memory not handed out yet (generic_heap.c): poisoned as
 * heap redzone. A taker of a fresh glibc chunk [start - 8, end) calls
 * far_heap_take before it sets the chunk's shadow; a chunk of ours going
 * back to glibc, raw its glibc pointer, goes through far_give_back. */
struct far_window {
	uintptr_t lo, hi; /* chunks inside need nothing */
};
extern __thread struct far_window far_seen __attribute__((tls_model("initial-exec")));
void far_heap_grew(uintptr_t start, uintptr_t end);
static inline void far_heap_take(uintptr_t start, uintptr_t end)
{
	if (__builtin_expect(start < far_seen.lo || end > far_seen.hi, 0))
		far_heap_grew(start, end);
}
void far_give_back(uintptr_t raw, size_t span);
/* A reported write over [addr, addr + size), from the chunk whose glibc
 * pointer is raw on: glibc's size fields under it are kept, and written
 * back by far_mend before glibc runs again (libc_alloc's hook) and at the
 * allocator's entries. */
void far_keep_fields(uintptr_t raw, uintptr_t addr, size_t size);
extern RT_HIDDEN int far_kept;
void far_mend_kept(void);
static inline void far_mend(void)
{
	if (__builtin_expect(__atomic_load_n(&far_kept, __ATOMIC_RELAXED) != 0, 0))
		far_mend_kept();
}
void far_heap_init(void);
void far_fork_prepare(void);
void far_fork_parent(void);
void far_fork_child(void);

/* Reports (report_generic.c). */
int generic_has_metadata(uintptr_t addr);
uintptr_t generic_first_bad(uintptr_t addr, size_t size);
const char *generic_bug_type(uintptr_t addr, size_t size, uintptr_t bad);
void generic_describe(struct kasan_report_info *r);
int generic_fetch_row(uintptr_t row, uint8_t out[16]);

/* Registered globals, for "The buggy address belongs to the variable". */
struct asan_global {
	uintptr_t beg;
	size_t size;
	size_t size_with_redzone;
	const char *name;
	const char *module_name;
	uintptr_t has_dynamic_init;
	const struct asan_global_location {
		const char *file;
		int line, column;
	} *location;
	uintptr_t odr_indicator;
};
const struct asan_global *generic_find_global(uintptr_t addr);

/* The heap as a leak scan reads it (generic_walk.c). */
extern RT_HIDDEN const struct leak_heap generic_leak_heap;

/* Stack use after return: the fake stacks (fake_stack.c); where they are,
 * for `ukasan leaks PID`. */
struct leak_remote_generic;
void generic_fake_stack_init(void);
void generic_fake_stack_no_return(void);
/* Calls fn on each thread's live fake frames (kmemleak's roots). */
void generic_fake_stack_each_live(void (*fn)(uintptr_t lo, uintptr_t hi, void *arg), void *arg);
void generic_fake_stack_leak_remote(struct leak_remote_generic *g);

#endif
