/* The interposed entry points' own logic, for the allocators' extra entry
 * points (extras.c) that must handle the pointers we gave out. */
#ifndef UKASAN_RUNTIME_ENTRY_H
#define UKASAN_RUNTIME_ENTRY_H

#include <stddef.h>
#include <stdint.h>

#include "../base/compiler.h"

/* Why the interposed entry points leave their fast paths, 0 when nothing
 * sends them off: one word tested on malloc's and free's common path.
 * ENTRY_UNREADY until ukasan is initialised (next_alloc is resolved then),
 * ENTRY_KASAN when KASAN's allocator serves the program, ENTRY_HOOKS once
 * an allocation hook is installed (hooks.h), which may be at any time. */
enum { ENTRY_UNREADY = 1, ENTRY_KASAN = 2, ENTRY_HOOKS = 4 };
extern RT_HIDDEN int entry_detour;

void *entry_alloc(size_t size, int api);
void *entry_aligned(size_t align, size_t size, int api);
void entry_free(void *p);
void *entry_realloc(void *p, size_t size);
/* ip: the caller, for the report when p is a freed object. */
size_t entry_usable_size(void *p, uintptr_t ip);
/* Whether KASAN's allocator takes p back (free, realloc, usable size):
 * every pointer in generic mode and with software tags, as programs built
 * with ukasan-cc allocate through it alone; with hardware tags (a preload),
 * pointers it did not make go back to the program's own allocator when
 * that is not glibc's (jemalloc's mallocx, mimalloc's mi_malloc...). */
int entry_kasan_takes(const void *p);

#endif
