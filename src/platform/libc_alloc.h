/* glibc's allocator under its internal names (__libc_malloc & co): where
 * KASAN's small chunks and unsampled large objects come from. The runtime
 * interposes those names too (runtime/own_alloc.c), so calls by name would
 * reach its interposers: these are the definitions after libukasan.so
 * (glibc's, or jemalloc's and mimalloc's, which define them too). */
#ifndef UKASAN_PLATFORM_LIBC_ALLOC_H
#define UKASAN_PLATFORM_LIBC_ALLOC_H

#include <stddef.h>

#include "../base/compiler.h"

struct libc_alloc {
	void *(*malloc)(size_t);
	void (*free)(void *);
	void *(*calloc)(size_t, size_t);
	void *(*realloc)(void *, size_t);
	void *(*memalign)(size_t, size_t);
	void *(*valloc)(size_t);
	void *(*pvalloc)(size_t);
	size_t (*usable_size)(void *); /* malloc_usable_size; may be NULL */
};

extern RT_HIDDEN struct libc_alloc libc_alloc_fns;
/* LIBC_ALLOC_FOUND once the functions are found; LIBC_ALLOC_HELD while
 * the hook runs before each call. */
enum { LIBC_ALLOC_FOUND = 1, LIBC_ALLOC_HELD = 2 };
extern RT_HIDDEN int libc_alloc_state;
const struct libc_alloc *libc_alloc_slow(void);

/* fn runs before each call through libc_alloc() while held: whoever wrote
 * over glibc's own memory puts it back there (generic KASAN, after a
 * reported write over a size field). It may not call glibc. */
void libc_alloc_hook(void (*fn)(void));
void libc_alloc_hold(int on);

/* Whether they are glibc's own (not jemalloc's or mimalloc's): then their
 * chunks and arenas are laid out as glibc's malloc.c has them. */
int libc_alloc_is_glibc(void);

/* Found on first use, with the loader's lists read as dlsym would, but
 * without its lock. */
static inline const struct libc_alloc *libc_alloc(void)
{
	if (likely(__atomic_load_n(&libc_alloc_state, __ATOMIC_ACQUIRE) == LIBC_ALLOC_FOUND))
		return &libc_alloc_fns;
	return libc_alloc_slow();
}

#endif
