/* The allocator the program would have used without ukasan: glibc's, or
 * jemalloc, tcmalloc or mimalloc when the program links one or preloads it
 * after libukasan.so. Unsampled allocations go there, and every pointer goes
 * back to the allocator that made it. */
#ifndef UKASAN_RUNTIME_NEXT_ALLOC_H
#define UKASAN_RUNTIME_NEXT_ALLOC_H

#include <stddef.h>

#include "../base/compiler.h"

struct next_alloc {
	void *(*malloc)(size_t);
	void (*free)(void *);
	void *(*calloc)(size_t, size_t);
	void *(*realloc)(void *, size_t);
	void *(*memalign)(size_t, size_t);
	int (*posix_memalign)(void **, size_t, size_t);
	void *(*aligned_alloc)(size_t, size_t);
	void *(*valloc)(size_t);
	void *(*pvalloc)(size_t);
	size_t (*usable_size)(void *); /* NULL if the allocator has none */
	/* libstdc++'s throwing operator new, for a failed C++ allocation: it
	 * runs the new-handler and throws std::bad_alloc. */
	void *(*cxx_new)(size_t);
	void *(*cxx_new_aligned)(size_t, size_t);
	const char *name; /* the object that defines them */
	/* The program's own allocator comes before ours (own_alloc.h): the
	 * family above is what the program would call without ukasan. */
	int own;
	int resolved;
};

extern RT_HIDDEN struct next_alloc next_alloc;

/* Lock-free and allocation-free; any thread may call it, any number of
 * times. Until it has run the glibc entry points stand in. */
void next_alloc_resolve(void);

static inline const struct next_alloc *next(void)
{
	if (unlikely(!__atomic_load_n(&next_alloc.resolved, __ATOMIC_ACQUIRE)))
		next_alloc_resolve();
	return &next_alloc;
}

/* Whether the allocator underneath is glibc's own (not jemalloc, tcmalloc or
 * mimalloc, which also define glibc's __libc_malloc). */
int next_alloc_is_libc(void);

/* Aligned allocation from whichever aligned entry point the allocator has. */
void *next_memalign(size_t align, size_t size);

/* The next definition of name after libukasan.so (what dlsym(RTLD_NEXT)
 * would find, without its lock or allocation), found once into *cache;
 * NULL when no object defines it. Call at start for every name used, while
 * no other thread can be unloading a library under the walk; a call that
 * comes first finds it then. */
void *next_symbol(void **cache, const char *name);

/* Finds jemalloc's, tcmalloc's and mimalloc's own entry points (extras.c). */
void extras_resolve(void);

/* When another object's malloc comes before ours in the search order, so
 * ukasan sees no allocation of its own: that library's name, "" for the
 * executable, or NULL when ours is the one bound. */
const char *next_alloc_shadowed_by(void);

#endif
