/* The allocator's part of ASan's interface, <sanitizer/allocator_interface.h>
 * (clang's; gcc ships no such header, but its programs call the same
 * names): sizes, ownership, statistics, purging, and the malloc and free
 * hooks. Objects are KASAN's (generic mode, tags) or KFENCE's; the
 * program's own allocator's, under KFENCE alone, are not ours. */
#include <stddef.h>
#include <stdint.h>

#include "../../include/ukasan.h"
#include "../base/compiler.h"
#include "../config/log.h"
#include "../kasan/kasan.h"
#include "../kasan/asan_interface.h"
#include "../kfence/kfence.h"
#include "entry.h"
#include "hooks.h"
#include "leak_track.h"

/* The size asked for, when p is the start of a live object of ours. */
static size_t owned_size(const void *p)
{
	if (!p)
		return (size_t)-1;
	if (kfence_owns(p))
		return kfence_size(p);
	if (kasan_enabled && kasan_owns(p))
		return kasan_usable_size(p);
	return (size_t)-1;
}

UKASAN_EXPORT int __sanitizer_get_ownership(const volatile void *p)
{
	return owned_size((const void *)p) != (size_t)-1;
}

/* A pointer that is not the start of a live object of ours is the
 * program's bug, reported as ASan reports it
 * (bad-__sanitizer_get_allocated_size), and its size is 0; NULL's is 0
 * without a report, as ASan's. Under KFENCE alone most objects are the
 * program's own allocator's: 0, no report. */
UKASAN_EXPORT size_t __sanitizer_get_allocated_size(const volatile void *p)
{
	size_t n = owned_size((const void *)p);
	if (n != (size_t)-1)
		return n;
	if (p && kasan_enabled) {
		char detail[160];
		fmt_buf(detail, sizeof(detail),
		        "attempting to call __sanitizer_get_allocated_size() for pointer which is "
		        "not owned: 0x%lx",
		        (unsigned long)(uintptr_t)p);
		kasan_report_alloc("bad-__sanitizer_get_allocated_size", detail);
	}
	return 0;
}

/* ASan's __sanitizer_get_allocated_begin (newer than clang 16's header):
 * the start of the live object that holds p, or NULL. */
UKASAN_EXPORT const void *__sanitizer_get_allocated_begin(const void *p)
{
	struct kasan_place o;
	if (kfence_owns(p)) /* KFENCE names no object by an inner pointer */
		return NULL;
	if (!kasan_place_of((uintptr_t)p, &o) || o.region != KASAN_REGION_HEAP || o.freed ||
	    (uintptr_t)p < o.start || (uintptr_t)p >= o.start + o.size)
		return NULL;
	return (const void *)o.start;
}

/* Objects get exactly what they ask for (the redzone follows at once). */
UKASAN_EXPORT size_t __sanitizer_get_estimated_allocated_size(size_t size)
{
	return size;
}

/* KASAN's heap counters; 0 without KASAN, where the heap is the program's
 * allocator's. */
UKASAN_EXPORT size_t __sanitizer_get_current_allocated_bytes(void)
{
	size_t live = 0, quarantined = 0, free_pool = 0;
	if (kasan_enabled)
		kasan_heap_counts(&live, &quarantined, &free_pool);
	return live;
}

UKASAN_EXPORT size_t __sanitizer_get_heap_size(void)
{
	size_t live = 0, quarantined = 0, free_pool = 0;
	if (kasan_enabled)
		kasan_heap_counts(&live, &quarantined, &free_pool);
	return live + quarantined + free_pool;
}

UKASAN_EXPORT size_t __sanitizer_get_free_bytes(void)
{
	size_t live = 0, quarantined = 0, free_pool = 0;
	if (kasan_enabled)
		kasan_heap_counts(&live, &quarantined, &free_pool);
	return quarantined + free_pool;
}

/* Freed memory goes back to the system at once (large regions, purges):
 * none is kept unmapped and counted. */
UKASAN_EXPORT size_t __sanitizer_get_unmapped_bytes(void)
{
	return 0;
}

UKASAN_EXPORT void __sanitizer_purge_allocator(void)
{
	ukasan_purge();
}

/* Up to five pairs, as ASan's; never removed. */
#define MAX_HOOKS 5
static struct {
	void (*malloc_hook)(const volatile void *, size_t);
	void (*free_hook)(const volatile void *);
} hooks[MAX_HOOKS];
static int nhooks;

UKASAN_EXPORT int
__sanitizer_install_malloc_and_free_hooks(void (*malloc_hook)(const volatile void *, size_t),
                                          void (*free_hook)(const volatile void *))
{
	int i = __atomic_fetch_add(&nhooks, 1, __ATOMIC_ACQ_REL);
	if (i >= MAX_HOOKS) {
		__atomic_store_n(&nhooks, MAX_HOOKS, __ATOMIC_RELEASE);
		return 0;
	}
	hooks[i].malloc_hook = malloc_hook;
	__atomic_store_n(&hooks[i].free_hook, free_hook, __ATOMIC_RELEASE);
	__atomic_fetch_or(&entry_detour, ENTRY_HOOKS, __ATOMIC_RELEASE);
	return 1;
}

/* A hook that allocates comes back here: it is not hooked again. */
static __thread int in_hook __attribute__((tls_model("initial-exec")));

void alloc_hooks_malloc(const void *p, size_t size)
{
	if (!p)
		return;
	/* kmemleak's registry first, and for a hook's own allocations too:
	 * an untracked object would hide what it points to. */
	if (leak_track_on)
		leak_track_alloc(p, size);
	if (in_hook)
		return;
	in_hook = 1;
	for (int i = 0; i < MAX_HOOKS; i++) {
		void (*h)(const volatile void *, size_t) =
		    __atomic_load_n(&hooks[i].malloc_hook, __ATOMIC_ACQUIRE);
		if (h)
			h(p, size);
	}
	in_hook = 0;
}

void alloc_hooks_free(const void *p)
{
	if (!p)
		return;
	if (leak_track_on)
		leak_track_free(p);
	if (in_hook)
		return;
	in_hook = 1;
	for (int i = 0; i < MAX_HOOKS; i++) {
		void (*h)(const volatile void *) =
		    __atomic_load_n(&hooks[i].free_hook, __ATOMIC_ACQUIRE);
		if (h)
			h(p);
	}
	in_hook = 0;
}
