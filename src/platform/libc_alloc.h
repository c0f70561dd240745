/* glibc's allocator under its internal names, which the program's malloc
 * (ours, when preloaded) does not interpose: where KASAN's small chunks and
 * unsampled large objects come from. */
#ifndef UKASAN_PLATFORM_LIBC_ALLOC_H
#define UKASAN_PLATFORM_LIBC_ALLOC_H

#include <stddef.h>

extern void *__libc_malloc(size_t size);
extern void *__libc_calloc(size_t n, size_t size);
extern void *__libc_memalign(size_t align, size_t size);
extern void __libc_free(void *p);

#endif
