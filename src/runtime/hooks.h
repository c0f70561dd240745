/* ASan's malloc and free hooks (__sanitizer_install_malloc_and_free_hooks,
 * alloc_api.c), which the interposed entry points (malloc.c) call. */
#ifndef UKASAN_RUNTIME_HOOKS_H
#define UKASAN_RUNTIME_HOOKS_H

#include <stddef.h>

/* Once a hook is installed, ENTRY_HOOKS is set in entry_detour (entry.h). */
/* After an allocation of size bytes at p; before p is freed. */
void alloc_hooks_malloc(const void *p, size_t size);
void alloc_hooks_free(const void *p);

#endif
