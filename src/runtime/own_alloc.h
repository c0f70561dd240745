/* Programs with their own allocator: the executable, or a library loaded
 * ahead of libukasan.so, defines malloc. Its pointers must never reach
 * another allocator, so every entry point of ours that such a program still
 * reaches (the ones its allocator lacks: reallocarray, sized delete,
 * memalign...) runs what would have run without ukasan, and KFENCE samples
 * only what that allocator passes on to glibc's __libc_malloc & co. */
#ifndef UKASAN_RUNTIME_OWN_ALLOC_H
#define UKASAN_RUNTIME_OWN_ALLOC_H

#include <stddef.h>

#include "../base/compiler.h"

/* What each interposed name would have bound to without ukasan: its first
 * definition outside libukasan.so, or, where no object defines it, the same
 * built from the shadowing allocator's own realloc, operator new and delete,
 * malloc and free. The malloc family proper is next_alloc's (filled the
 * same way), so only the rest is here. Filled before next_alloc.own is
 * set. */
struct own_alloc {
	void (*cfree)(void *);
	void *(*reallocarray)(void *, size_t, size_t);
	void *(*new_[2])(size_t); /* [0] new, [1] new[] */
	void *(*new_nothrow[2])(size_t, const void *);
	void *(*new_aligned[2])(size_t, size_t);
	void *(*new_aligned_nothrow[2])(size_t, size_t, const void *);
	void (*del[2])(void *); /* [0] delete, [1] delete[] */
	void (*del_sized[2])(void *, size_t);
	void (*del_aligned[2])(void *, size_t);
	void (*del_sized_aligned[2])(void *, size_t, size_t);
	void (*del_nothrow[2])(void *, const void *);
	void (*del_aligned_nothrow[2])(void *, size_t, const void *);
};

extern RT_HIDDEN struct own_alloc own_alloc;

struct link_map;

/* The first definition of name outside libukasan.so: what the program's
 * references would bind to without it. */
void *own_definition(const char *name);

/* Fills own_alloc when shadow's malloc comes first (next_alloc_resolve). */
void own_alloc_resolve(const struct link_map *shadow);

/* Whether the shadowing allocator calls glibc's __libc_malloc: then ours,
 * interposed, samples what it passes on (generic and tag modes excepted:
 * KASAN's own allocator calls __libc_malloc too). Call once KASAN's mode is
 * known. */
void own_alloc_start(void);
int own_alloc_samples(void);

#include "../platform/libc_alloc.h"

#endif
