/* Programs with their own allocator (own_alloc.h). Without ukasan, libc's
 * and libstdc++'s entry points that such a program lacks mostly come back to
 * it: glibc's reallocarray calls realloc through its PLT, libstdc++'s sized,
 * array and nothrow delete call operator delete(void *), which binds to the
 * program's. The rest (glibc's memalign, aligned_alloc, malloc_usable_size)
 * serve or read glibc's heap, and a program whose free cannot take their
 * pointers breaks without ukasan too. Either way the faithful thing is to
 * call the same definitions, so that is what every entry point does. */
#define _GNU_SOURCE
#include "../platform/libc_alloc.h"
#include "own_alloc.h"

#include <errno.h>
#include <link.h>

#include "../base/compiler.h"
#include "../kasan/kasan.h"
#include "../kfence/kfence.h"
#include "../platform/dynlink.h"
#include "init.h"
#include "next_alloc.h"

struct own_alloc own_alloc;

void *own_definition(const char *name)
{
	const void *self = (const void *)&own_definition;
	const struct link_map *where = NULL;
	void *p = dl_first_definition(name, &where);
	if (p && where == dl_object_of(self))
		p = dl_next_definition(self, name, NULL);
	return p;
}

/* Stand-ins for names no object defines, built from the program's own. */
static void *reallocarray_from_realloc(void *p, size_t n, size_t size)
{
	size_t total;
	if (__builtin_mul_overflow(n, size, &total)) {
		errno = ENOMEM;
		return NULL;
	}
	return next()->realloc(p, total);
}

static void cfree_from_free(void *p)
{
	next()->free(p);
}

static void *new_from_malloc(size_t n)
{
	return next()->malloc(n ? n : 1);
}

static void *new_aligned_from_memalign(size_t n, size_t al)
{
	return next_memalign(al, n ? n : 1);
}

/* libstdc++'s aligned delete calls free, as does its plain one. */
static void delete_from_free(void *p)
{
	next()->free(p);
}

static void delete_aligned_from_free(void *p, size_t al)
{
	(void)al;
	next()->free(p);
}

/* libstdc++'s new[] calls new, and its delete[] calls delete. */
static void *new_array(size_t n)
{
	return own_alloc.new_[0](n);
}

static void delete_array(void *p)
{
	own_alloc.del[0](p);
}

#define FORMS(i)                                                                                   \
	static void *new_nothrow_##i(size_t n, const void *tag)                                    \
	{                                                                                          \
		(void)tag;                                                                         \
		return own_alloc.new_[i](n);                                                       \
	}                                                                                          \
	static void *new_aligned_nothrow_##i(size_t n, size_t al, const void *tag)                 \
	{                                                                                          \
		(void)tag;                                                                         \
		return own_alloc.new_aligned[i](n, al);                                            \
	}                                                                                          \
	static void delete_sized_##i(void *p, size_t n)                                            \
	{                                                                                          \
		(void)n;                                                                           \
		own_alloc.del[i](p);                                                               \
	}                                                                                          \
	static void delete_sized_aligned_##i(void *p, size_t n, size_t al)                         \
	{                                                                                          \
		(void)n;                                                                           \
		own_alloc.del_aligned[i](p, al);                                                   \
	}                                                                                          \
	static void delete_nothrow_##i(void *p, const void *tag)                                   \
	{                                                                                          \
		(void)tag;                                                                         \
		own_alloc.del[i](p);                                                               \
	}                                                                                          \
	static void delete_aligned_nothrow_##i(void *p, size_t al, const void *tag)                \
	{                                                                                          \
		(void)tag;                                                                         \
		own_alloc.del_aligned[i](p, al);                                                   \
	}
FORMS(0)
FORMS(1)

#define OWN(field, name, fallback)                                                                 \
	do {                                                                                       \
		void *f_ = own_definition(name);                                                   \
		own_alloc.field = f_ ? (__typeof__(own_alloc.field))f_ : (fallback);               \
	} while (0)

static const struct link_map *shadow;

void own_alloc_resolve(const struct link_map *by)
{
	shadow = by;
	OWN(cfree, "cfree", cfree_from_free);
	OWN(reallocarray, "reallocarray", reallocarray_from_realloc);
	/* The plain forms first: the others' stand-ins call them. */
	OWN(new_[0], "_Znwm", new_from_malloc);
	OWN(new_[1], "_Znam", new_array);
	OWN(new_nothrow[0], "_ZnwmRKSt9nothrow_t", new_nothrow_0);
	OWN(new_nothrow[1], "_ZnamRKSt9nothrow_t", new_nothrow_1);
	OWN(new_aligned[0], "_ZnwmSt11align_val_t", new_aligned_from_memalign);
	OWN(new_aligned[1], "_ZnamSt11align_val_t", new_aligned_from_memalign);
	OWN(new_aligned_nothrow[0], "_ZnwmSt11align_val_tRKSt9nothrow_t", new_aligned_nothrow_0);
	OWN(new_aligned_nothrow[1], "_ZnamSt11align_val_tRKSt9nothrow_t", new_aligned_nothrow_1);
	OWN(del[0], "_ZdlPv", delete_from_free);
	OWN(del[1], "_ZdaPv", delete_array);
	OWN(del_sized[0], "_ZdlPvm", delete_sized_0);
	OWN(del_sized[1], "_ZdaPvm", delete_sized_1);
	OWN(del_aligned[0], "_ZdlPvSt11align_val_t", delete_aligned_from_free);
	OWN(del_aligned[1], "_ZdaPvSt11align_val_t", delete_aligned_from_free);
	OWN(del_sized_aligned[0], "_ZdlPvmSt11align_val_t", delete_sized_aligned_0);
	OWN(del_sized_aligned[1], "_ZdaPvmSt11align_val_t", delete_sized_aligned_1);
	OWN(del_nothrow[0], "_ZdlPvRKSt9nothrow_t", delete_nothrow_0);
	OWN(del_nothrow[1], "_ZdaPvRKSt9nothrow_t", delete_nothrow_1);
	OWN(del_aligned_nothrow[0], "_ZdlPvSt11align_val_tRKSt9nothrow_t",
	    delete_aligned_nothrow_0);
	OWN(del_aligned_nothrow[1], "_ZdaPvSt11align_val_tRKSt9nothrow_t",
	    delete_aligned_nothrow_1);
}

static int samples;

void own_alloc_start(void)
{
	int s = next()->own && !kasan_enabled && dl_imports(shadow, "__libc_malloc");
	__atomic_store_n(&samples, s, __ATOMIC_RELEASE);
}

int own_alloc_samples(void)
{
	return __atomic_load_n(&samples, __ATOMIC_ACQUIRE);
}

/* glibc's __libc_* names, interposed. Everyone else who calls them (KASAN's
 * allocator here, jemalloc's and mimalloc's own definitions aside) gets
 * glibc's at once; a program with its own allocator over them gets its
 * allocations sampled. */
static void *sampled(size_t size, size_t align, int api, int zero)
{
	if (likely(!own_alloc_samples()) || !ukasan_ready() || !kfence_should_sample())
		return NULL;
	return kfence_alloc(size, align, api, zero);
}

/* glibc's memory handed to the program as it is: in generic mode it may
 * come from heap memory KASAN poisoned before glibc handed it out. */
static void *handed(void *p)
{
	if (unlikely(kasan_enabled))
		kasan_libc_handed(p);
	return p;
}

UKASAN_EXPORT void *__libc_malloc(size_t size);
UKASAN_EXPORT void *__libc_malloc(size_t size)
{
	void *p = sampled(size, 0, API_MALLOC, 0);
	return p ? p : handed(libc_alloc()->malloc(size));
}

UKASAN_EXPORT void __libc_free(void *p);
UKASAN_EXPORT void __libc_free(void *p)
{
	if (unlikely(kfence_owns(p)))
		kfence_free(p);
	else
		libc_alloc()->free(p);
}

UKASAN_EXPORT void *__libc_calloc(size_t n, size_t size);
UKASAN_EXPORT void *__libc_calloc(size_t n, size_t size)
{
	size_t total;
	void *p = NULL;
	if (!__builtin_mul_overflow(n, size, &total))
		p = sampled(total, 0, API_CALLOC, 1);
	return p ? p : handed(libc_alloc()->calloc(n, size));
}

UKASAN_EXPORT void *__libc_memalign(size_t align, size_t size);
UKASAN_EXPORT void *__libc_memalign(size_t align, size_t size)
{
	void *p = align && !(align & (align - 1)) ? sampled(size, align, API_MEMALIGN, 0) : NULL;
	return p ? p : handed(libc_alloc()->memalign(align, size));
}

UKASAN_EXPORT void *__libc_realloc(void *p, size_t size);
UKASAN_EXPORT void *__libc_realloc(void *p, size_t size)
{
	if (!p)
		return __libc_malloc(size);
	if (likely(!kfence_owns(p)))
		return handed(libc_alloc()->realloc(p, size));
	size_t old = kfence_size(p);
	if (old == (size_t)-1 || size == 0) {
		/* An invalid pointer is reported; a size of 0 frees, as glibc's. */
		kfence_free(p);
		if (size)
			errno = ENOMEM;
		return NULL;
	}
	return rt_realloc_move(__libc_malloc(size), p, old, size, kfence_free);
}
