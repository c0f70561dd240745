/* The extra entry points of jemalloc, tcmalloc and mimalloc that take a
 * pointer. A program linked against one of them may hand them a pointer
 * that malloc gave it, and that pointer may be a KFENCE object (or, in
 * generic mode, a KASAN one): those are handled here, everything else goes
 * on to the allocator's own function. Entry points that only allocate
 * (mallocx, tc_malloc, mi_malloc) are left alone: what they return is the
 * allocator's, and defining them here would make programs that probe for an
 * allocator with weak references believe it is present. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>

#include "../base/compiler.h"
#include "../kasan/kasan.h"
#include "../kfence/kfence.h"
#include "entry.h"
#include "next_alloc.h"

static int ours_ptr(const void *p)
{
	return kfence_owns(p) || entry_kasan_takes(p);
}

#define NEXT(name) ((__typeof__(&name))next_symbol(&next_##name, #name))

/* Copies into a new object of ours and frees the old: none of these can
 * grow a guarded object in place. */
static void *move(void *p, size_t size, size_t align, int zero)
{
	size_t old = entry_usable_size(p, 0);
	void *q =
	    align > 16 ? entry_aligned(align, size, API_MEMALIGN) : entry_alloc(size, API_REALLOC);
	if (q && zero && size > old)
		rt_memset((char *)q + old, 0, size - old);
	return rt_realloc_move(q, p, old, size, entry_free);
}

/* jemalloc. The low six bits of flags are the alignment's log2, 0x40 asks
 * for zeroed memory. */
#define JE_ALIGN(flags) ((flags)&0x3f ? (size_t)1 << ((flags)&0x3f) : 0)
#define JE_ZERO(flags)  ((flags)&0x40)

static void *next_rallocx, *next_xallocx, *next_sallocx, *next_dallocx, *next_sdallocx;

UKASAN_EXPORT void *rallocx(void *p, size_t size, int flags);
UKASAN_EXPORT void *rallocx(void *p, size_t size, int flags)
{
	if (ours_ptr(p))
		return move(p, size, JE_ALIGN(flags), JE_ZERO(flags));
	if (NEXT(rallocx))
		return NEXT(rallocx)(p, size, flags);
	return next()->realloc(p, size);
}

UKASAN_EXPORT size_t xallocx(void *p, size_t size, size_t extra, int flags);
UKASAN_EXPORT size_t xallocx(void *p, size_t size, size_t extra, int flags)
{
	if (ours_ptr(p) || !NEXT(xallocx))
		return entry_usable_size(p, (uintptr_t)__builtin_return_address(0));
	return NEXT(xallocx)(p, size, extra, flags);
}

UKASAN_EXPORT size_t sallocx(const void *p, int flags);
UKASAN_EXPORT size_t sallocx(const void *p, int flags)
{
	if (ours_ptr(p) || !NEXT(sallocx))
		return entry_usable_size((void *)p, (uintptr_t)__builtin_return_address(0));
	return NEXT(sallocx)(p, flags);
}

UKASAN_EXPORT void dallocx(void *p, int flags);
UKASAN_EXPORT void dallocx(void *p, int flags)
{
	if (ours_ptr(p) || !NEXT(dallocx))
		entry_free(p);
	else
		NEXT(dallocx)(p, flags);
}

UKASAN_EXPORT void sdallocx(void *p, size_t size, int flags);
UKASAN_EXPORT void sdallocx(void *p, size_t size, int flags)
{
	if (ours_ptr(p) || !NEXT(sdallocx))
		entry_free(p);
	else
		NEXT(sdallocx)(p, size, flags);
}

/* Frees of every shape (tcmalloc's tc_free, tc_delete*, mimalloc's mi_free*):
 * the extra arguments are sizes, alignments and nothrow tags. */
#define FREE_LIKE(name, ...)                                                                       \
	static void *next_##name;                                                                  \
	UKASAN_EXPORT void name(void *p, ##__VA_ARGS__);                                           \
	UKASAN_EXPORT void name(void *p, ##__VA_ARGS__)                                            \
	{                                                                                          \
		void (*f)(void *, ...) = (void (*)(void *, ...))next_symbol(&next_##name, #name);  \
		if (ours_ptr(p) || !f)                                                             \
			entry_free(p);                                                             \
		else                                                                               \
			FORWARD_##name;                                                            \
	}

typedef void (*free1)(void *);
typedef void (*free2)(void *, size_t);
typedef void (*free3)(void *, size_t, size_t);
typedef void (*free_tag)(void *, const void *);
typedef void (*free_al_tag)(void *, size_t, const void *);

#define FORWARD_tc_free                        ((free1)f)(p)
#define FORWARD_tc_cfree                       ((free1)f)(p)
#define FORWARD_tc_delete                      ((free1)f)(p)
#define FORWARD_tc_deletearray                 ((free1)f)(p)
#define FORWARD_tc_free_sized                  ((free2)f)(p, a)
#define FORWARD_tc_delete_sized                ((free2)f)(p, a)
#define FORWARD_tc_deletearray_sized           ((free2)f)(p, a)
#define FORWARD_tc_delete_aligned              ((free2)f)(p, a)
#define FORWARD_tc_deletearray_aligned         ((free2)f)(p, a)
#define FORWARD_tc_delete_sized_aligned        ((free3)f)(p, a, b)
#define FORWARD_tc_deletearray_sized_aligned   ((free3)f)(p, a, b)
#define FORWARD_tc_delete_nothrow              ((free_tag)f)(p, t)
#define FORWARD_tc_deletearray_nothrow         ((free_tag)f)(p, t)
#define FORWARD_tc_delete_aligned_nothrow      ((free_al_tag)f)(p, a, t)
#define FORWARD_tc_deletearray_aligned_nothrow ((free_al_tag)f)(p, a, t)
#define FORWARD_mi_free                        ((free1)f)(p)
#define FORWARD_mi_cfree                       ((free1)f)(p)
#define FORWARD_mi_free_size                   ((free2)f)(p, a)
#define FORWARD_mi_free_aligned                ((free2)f)(p, a)
#define FORWARD_mi_free_size_aligned           ((free3)f)(p, a, b)

FREE_LIKE(tc_free)
FREE_LIKE(tc_cfree)
FREE_LIKE(tc_delete)
FREE_LIKE(tc_deletearray)
FREE_LIKE(tc_free_sized, size_t a)
FREE_LIKE(tc_delete_sized, size_t a)
FREE_LIKE(tc_deletearray_sized, size_t a)
FREE_LIKE(tc_delete_aligned, size_t a)
FREE_LIKE(tc_deletearray_aligned, size_t a)
FREE_LIKE(tc_delete_sized_aligned, size_t a, size_t b)
FREE_LIKE(tc_deletearray_sized_aligned, size_t a, size_t b)
FREE_LIKE(tc_delete_nothrow, const void *t)
FREE_LIKE(tc_deletearray_nothrow, const void *t)
FREE_LIKE(tc_delete_aligned_nothrow, size_t a, const void *t)
FREE_LIKE(tc_deletearray_aligned_nothrow, size_t a, const void *t)
FREE_LIKE(mi_free)
FREE_LIKE(mi_cfree)
FREE_LIKE(mi_free_size, size_t a)
FREE_LIKE(mi_free_aligned, size_t a)
FREE_LIKE(mi_free_size_aligned, size_t a, size_t b)

/* Sizes. */
#define SIZE_LIKE(name)                                                                            \
	static void *next_##name;                                                                  \
	UKASAN_EXPORT size_t name(const void *p);                                                  \
	UKASAN_EXPORT size_t name(const void *p)                                                   \
	{                                                                                          \
		if (ours_ptr(p) || !NEXT(name))                                                    \
			return entry_usable_size((void *)p,                                        \
			                         (uintptr_t)__builtin_return_address(0));          \
		return NEXT(name)(p);                                                              \
	}
SIZE_LIKE(tc_malloc_size)
SIZE_LIKE(mi_usable_size)
SIZE_LIKE(mi_malloc_size)

/* Reallocation. */
static void *next_tc_realloc, *next_mi_realloc, *next_mi_reallocf, *next_mi_rezalloc,
    *next_mi_reallocn, *next_mi_recalloc, *next_mi_expand, *next_mi_realloc_aligned,
    *next_mi_rezalloc_aligned;

#define REALLOC_LIKE(name)                                                                         \
	UKASAN_EXPORT void *name(void *p, size_t size);                                            \
	UKASAN_EXPORT void *name(void *p, size_t size)                                             \
	{                                                                                          \
		if (ours_ptr(p))                                                                   \
			return move(p, size, 0, 0);                                                \
		return NEXT(name) ? NEXT(name)(p, size) : next()->realloc(p, size);                \
	}
REALLOC_LIKE(tc_realloc)
REALLOC_LIKE(mi_realloc)

UKASAN_EXPORT void *mi_reallocf(void *p, size_t size);
UKASAN_EXPORT void *mi_reallocf(void *p, size_t size)
{
	if (ours_ptr(p)) {
		void *q = move(p, size, 0, 0);
		if (!q)
			entry_free(p);
		return q;
	}
	return NEXT(mi_reallocf) ? NEXT(mi_reallocf)(p, size) : next()->realloc(p, size);
}

UKASAN_EXPORT void *mi_rezalloc(void *p, size_t size);
UKASAN_EXPORT void *mi_rezalloc(void *p, size_t size)
{
	if (ours_ptr(p))
		return move(p, size, 0, 1);
	return NEXT(mi_rezalloc) ? NEXT(mi_rezalloc)(p, size) : next()->realloc(p, size);
}

#define REALLOCN_LIKE(name, zero)                                                                  \
	UKASAN_EXPORT void *name(void *p, size_t count, size_t size);                              \
	UKASAN_EXPORT void *name(void *p, size_t count, size_t size)                               \
	{                                                                                          \
		size_t total;                                                                      \
		if (ours_ptr(p)) {                                                                 \
			if (__builtin_mul_overflow(count, size, &total)) {                         \
				errno = ENOMEM;                                                    \
				return NULL;                                                       \
			}                                                                          \
			return move(p, total, 0, zero);                                            \
		}                                                                                  \
		if (NEXT(name))                                                                    \
			return NEXT(name)(p, count, size);                                         \
		if (__builtin_mul_overflow(count, size, &total)) {                                 \
			errno = ENOMEM;                                                            \
			return NULL;                                                               \
		}                                                                                  \
		return next()->realloc(p, total);                                                  \
	}
REALLOCN_LIKE(mi_reallocn, 0)
REALLOCN_LIKE(mi_recalloc, 1)

/* Grows in place or fails: a guarded object has no room to grow into. */
UKASAN_EXPORT void *mi_expand(void *p, size_t size);
UKASAN_EXPORT void *mi_expand(void *p, size_t size)
{
	if (ours_ptr(p))
		return size <= entry_usable_size(p, 0) ? p : NULL;
	return NEXT(mi_expand) ? NEXT(mi_expand)(p, size) : NULL;
}

#define REALLOC_ALIGNED_LIKE(name, zero)                                                           \
	UKASAN_EXPORT void *name(void *p, size_t size, size_t align);                              \
	UKASAN_EXPORT void *name(void *p, size_t size, size_t align)                               \
	{                                                                                          \
		if (ours_ptr(p))                                                                   \
			return move(p, size, align, zero);                                         \
		return NEXT(name) ? NEXT(name)(p, size, align) : NULL;                             \
	}
REALLOC_ALIGNED_LIKE(mi_realloc_aligned, 0)
REALLOC_ALIGNED_LIKE(mi_rezalloc_aligned, 1)

/* At start (see next_symbol): every name this file forwards to. */
void extras_resolve(void)
{
	static const struct {
		void **cache;
		const char *name;
	} all[] = {
	    {&next_rallocx, "rallocx"},
	    {&next_xallocx, "xallocx"},
	    {&next_sallocx, "sallocx"},
	    {&next_dallocx, "dallocx"},
	    {&next_sdallocx, "sdallocx"},
	    {&next_tc_realloc, "tc_realloc"},
	    {&next_mi_realloc, "mi_realloc"},
	    {&next_mi_reallocf, "mi_reallocf"},
	    {&next_mi_rezalloc, "mi_rezalloc"},
	    {&next_mi_reallocn, "mi_reallocn"},
	    {&next_mi_recalloc, "mi_recalloc"},
	    {&next_mi_expand, "mi_expand"},
	    {&next_mi_realloc_aligned, "mi_realloc_aligned"},
	    {&next_mi_rezalloc_aligned, "mi_rezalloc_aligned"},
	    {&next_tc_free, "tc_free"},
	    {&next_tc_cfree, "tc_cfree"},
	    {&next_tc_delete, "tc_delete"},
	    {&next_tc_deletearray, "tc_deletearray"},
	    {&next_tc_free_sized, "tc_free_sized"},
	    {&next_tc_delete_sized, "tc_delete_sized"},
	    {&next_tc_deletearray_sized, "tc_deletearray_sized"},
	    {&next_tc_delete_aligned, "tc_delete_aligned"},
	    {&next_tc_deletearray_aligned, "tc_deletearray_aligned"},
	    {&next_tc_delete_sized_aligned, "tc_delete_sized_aligned"},
	    {&next_tc_deletearray_sized_aligned, "tc_deletearray_sized_aligned"},
	    {&next_tc_delete_nothrow, "tc_delete_nothrow"},
	    {&next_tc_deletearray_nothrow, "tc_deletearray_nothrow"},
	    {&next_tc_delete_aligned_nothrow, "tc_delete_aligned_nothrow"},
	    {&next_tc_deletearray_aligned_nothrow, "tc_deletearray_aligned_nothrow"},
	    {&next_mi_free, "mi_free"},
	    {&next_mi_cfree, "mi_cfree"},
	    {&next_mi_free_size, "mi_free_size"},
	    {&next_mi_free_aligned, "mi_free_aligned"},
	    {&next_mi_free_size_aligned, "mi_free_size_aligned"},
	    {&next_tc_malloc_size, "tc_malloc_size"},
	    {&next_mi_usable_size, "mi_usable_size"},
	    {&next_mi_malloc_size, "mi_malloc_size"},
	};
	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		next_symbol(all[i].cache, all[i].name);
}
