/* The malloc family and C++ new/delete. A sampled allocation comes from the
 * KFENCE pool. Otherwise, in a program built with ukasan-cc, the generic
 * KASAN allocator serves it; in any other program, the allocator it would
 * have used without us does (next_alloc.h: glibc's, or jemalloc, tcmalloc,
 * mimalloc), so the program keeps that allocator's speed and memory
 * behaviour. The common path costs a thread-local decrement and a flag test
 * (malloc) or a range compare and a flag test (free), then an indirect
 * call. */
#define _GNU_SOURCE
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "../base/compiler.h"
#include "../kasan/kasan.h"
#include "../kfence/kfence.h"
#include "../platform/os.h"
#include "../stack/stack.h"
#include "entry.h"
#include "hooks.h"
#include "init.h"
#include "next_alloc.h"
#include "own_alloc.h"

/* Set when a throwing new hands a refused size to libstdc++'s new, whose
 * malloc of it must fail without a second report. */
static __thread int refused_once __attribute__((tls_model("initial-exec")));

/* The stacks an allocation or a free captures start at the frame noted
 * with stack_entry_enter: the program's call when the exported name
 * reached the noting function by a tail call, else a frame or two of ours
 * above it. Every allocation notes its frame in ours(), every free in
 * free_as(), realloc in realloc_hooked() (kasan_realloc frees the old
 * object itself): so no capture starts at the frame of an allocation it is
 * nested in (a signal handler's, an allocation hook's). ENTERED runs call
 * so; around calls that return, never one that may throw. */
#define ENTERED(call)                                                                              \
	({                                                                                         \
		struct stack_entry was_ = stack_entry_enter(__builtin_frame_address(0));           \
		__typeof__(call) r_ = (call);                                                      \
		stack_entry_leave(was_);                                                           \
		r_;                                                                                \
	})

/* The first allocation of the process initialises ukasan (ukasan_ready),
 * so the generic-mode test after it is already right. While another
 * thread is still initialising, nothing is sampled. */
static void *ours(size_t size, size_t align, int api, int zero)
{
	if (unlikely(size > kasan_max_allocation) && kasan_enabled) {
		if (refused_once)
			refused_once = 0;
		else
			kasan_refuse_size(size);
		errno = ENOMEM;
		return NULL;
	}
	struct stack_entry was = stack_entry_enter(__builtin_frame_address(0));
	void *p = NULL;
	if (likely(ukasan_ready()) && unlikely(kfence_should_sample())) {
		p = kfence_alloc(size, align, api, zero);
		/* Filled as the KASAN allocator's objects are, so that sampling
		 * changes nothing a program sees; without KASAN as the kernel's
		 * KFENCE and glibc's malloc: unfilled. */
		if (p && !zero && kasan_enabled)
			kasan_fill_new(p, size);
	}
	if (!p && unlikely(kasan_enabled))
		p = kasan_malloc(size, align, api, zero);
	stack_entry_leave(was);
	return p;
}

/* ASan's malloc and free hooks, called from every entry point below
 * but not twice for one call (realloc's inner allocation). */
static __thread int hooks_muted __attribute__((tls_model("initial-exec")));

int entry_detour = ENTRY_UNREADY;

static inline int hooks_on(void)
{
	return __atomic_load_n(&entry_detour, __ATOMIC_RELAXED) & ENTRY_HOOKS;
}

static inline void *hook_alloc(void *p, size_t size)
{
	if (unlikely(hooks_on()) && p && !hooks_muted)
		alloc_hooks_malloc(p, size);
	return p;
}

void *entry_alloc(size_t size, int api)
{
	void *p = ours(size, 0, api, 0);
	return hook_alloc(p || kasan_enabled ? p : next()->malloc(size), size);
}

/* A program with its own allocator (own_alloc.h) gets what it would call
 * without us. Checked where the path leaves the family's own members, which
 * next_alloc already points at the program's. */
#define OWN(call)                                                                                  \
	do {                                                                                       \
		if (unlikely(next()->own))                                                         \
			return call;                                                               \
	} while (0)
#define OWN_VOID(call)                                                                             \
	do {                                                                                       \
		if (unlikely(next()->own)) {                                                       \
			call;                                                                      \
			return;                                                                    \
		}                                                                                  \
	} while (0)

/* The common case, kept free of any stack frame: two tests, the
 * countdown's decrement and a tail call to the allocator underneath.
 * Everything else goes through the out-of-line path. A countdown above 1
 * means this thread has seen ukasan initialised. */
static inline int fast_path(void)
{
	return likely(kfence_countdown > 1) &&
	       likely(!__atomic_load_n(&entry_detour, __ATOMIC_RELAXED));
}

#define FAST(call)                                                                                 \
	do {                                                                                       \
		if (fast_path()) {                                                                 \
			kfence_countdown--;                                                        \
			return call;                                                               \
		}                                                                                  \
	} while (0)

static __attribute__((noinline)) void *malloc_slow(size_t size)
{
	OWN(next_alloc.malloc(size));
	return entry_alloc(size, API_MALLOC);
}

int entry_kasan_takes(const void *p)
{
	if (!kasan_enabled || !p || next()->own)
		return 0;
	return kasan_owns(p) || next_alloc_is_libc();
}

/* api: the family that frees (free, delete, delete[]), which KASAN
 * compares with the allocating one; size and align: a sized or aligned
 * delete's, else 0. */
static inline void free_as(void *p, int api, size_t size, size_t align)
{
	if (unlikely(hooks_on()) && p && !hooks_muted)
		alloc_hooks_free(p);
	/* A program with its own allocator frees a KFENCE object of ours
	 * through its own free, which passes it on to __libc_free. */
	struct stack_entry was = stack_entry_enter(__builtin_frame_address(0));
	if (unlikely(kfence_owns(p)) && likely(!next_alloc.own))
		kfence_free(p);
	else if (unlikely(kasan_enabled) && entry_kasan_takes(p))
		kasan_free_as(p, api, size, align);
	else
		next()->free(p);
	stack_entry_leave(was);
}

void entry_free(void *p)
{
	free_as(p, API_MALLOC, 0, 0);
}

/* Out of line, so that free keeps no stack frame on its common path. */
static __attribute__((noinline)) void free_slow(void *p)
{
	entry_free(p);
}

/* free's common case: the detour word and the pool's range tested, then a
 * tail call to the allocator underneath (which is the program's own free
 * when it has one). No countdown: free samples nothing, and a thread that
 * has never allocated frees too. The detour word read with acquire, as
 * ENTRY_UNREADY's clearing publishes next_alloc. */
static inline int free_fast(const void *p)
{
	return likely(!__atomic_load_n(&entry_detour, __ATOMIC_ACQUIRE)) && likely(!kfence_owns(p));
}

static int is_pow2(size_t x)
{
	return x && !(x & (x - 1));
}

void *entry_aligned(size_t align, size_t size, int api)
{
	if (!is_pow2(align)) /* glibc rounds such alignments up */
		align = align ? 1ul << (64 - __builtin_clzl(align)) : 16;
	void *p = ours(size, align, api, 0);
	return hook_alloc(p || kasan_enabled ? p : next_memalign(align, size), size);
}

UKASAN_EXPORT void *malloc(size_t size)
{
	FAST(next_alloc.malloc(size));
	return malloc_slow(size);
}

UKASAN_EXPORT void free(void *p)
{
	if (free_fast(p)) {
		next_alloc.free(p);
		return;
	}
	free_slow(p);
}

UKASAN_EXPORT void cfree(void *p)
{
	OWN_VOID(own_alloc.cfree(p));
	entry_free(p);
}

static __attribute__((noinline)) void *calloc_slow(size_t n, size_t size)
{
	OWN(next_alloc.calloc(n, size));
	size_t total;
	if (__builtin_mul_overflow(n, size, &total)) {
		if (kasan_enabled)
			kasan_refuse_count("calloc-overflow", n, size);
		errno = ENOMEM;
		return NULL;
	}
	void *p = ours(total, 0, API_CALLOC, 1);
	return hook_alloc(p || kasan_enabled ? p : next()->calloc(n, size), total);
}

UKASAN_EXPORT void *calloc(size_t n, size_t size)
{
	FAST(next_alloc.calloc(n, size)); /* the allocator checks the overflow */
	return calloc_slow(n, size);
}

static void *realloc_inner(void *p, size_t size, int pooled);

/* As ASan's: the new object's malloc hook, then the old one's free hook.
 * pooled: kfence_owns(p), asked once per realloc. */
static __attribute__((noinline)) void *realloc_hooked(void *p, size_t size, int pooled)
{
	if (likely(!hooks_on()) || !p || hooks_muted)
		return ENTERED(realloc_inner(p, size, pooled));
	hooks_muted = 1;
	void *q = ENTERED(realloc_inner(p, size, pooled));
	hooks_muted = 0;
	if (q == p) { /* grown or shrunk in place */
		alloc_hooks_free(p);
		alloc_hooks_malloc(q, size);
		return q;
	}
	if (q)
		alloc_hooks_malloc(q, size);
	if (q || !size)
		alloc_hooks_free(p);
	return q;
}

void *entry_realloc(void *p, size_t size)
{
	return realloc_hooked(p, size, kfence_owns(p));
}

static void *realloc_inner(void *p, size_t size, int pooled)
{
	OWN(next_alloc.realloc(p, size));
	if (!p)
		return entry_alloc(size, API_REALLOC);
	if (likely(!pooled)) {
		if (unlikely(kasan_enabled) && entry_kasan_takes(p))
			return kasan_realloc(p, size, API_REALLOC, entry_alloc);
		/* Moving an object into the pool needs its old size. */
		void *q = kfence_should_sample() && next()->usable_size
		              ? kfence_alloc(size, 0, API_REALLOC, 0)
		              : NULL;
		if (!q)
			return next()->realloc(p, size);
		return rt_realloc_move(q, p, next()->usable_size(p), size, next()->free);
	}
	size_t old = kfence_size(p);
	if (old == (size_t)-1) {
		kfence_free(p); /* reports the invalid free */
		errno = ENOMEM;
		return NULL;
	}
	if (size == 0) { /* glibc frees and returns NULL */
		kfence_free(p);
		return NULL;
	}
	return rt_realloc_move(entry_alloc(size, API_REALLOC), p, old, size, kfence_free);
}

UKASAN_EXPORT void *realloc(void *p, size_t size)
{
	int pooled = kfence_owns(p);
	if (!pooled)
		FAST(next_alloc.realloc(p, size));
	return realloc_hooked(p, size, pooled);
}

UKASAN_EXPORT void *reallocarray(void *p, size_t n, size_t size)
{
	OWN(own_alloc.reallocarray(p, n, size));
	size_t total;
	if (__builtin_mul_overflow(n, size, &total)) {
		if (kasan_enabled)
			kasan_refuse_count("reallocarray-overflow", n, size);
		errno = ENOMEM;
		return NULL;
	}
	return realloc(p, total);
}

UKASAN_EXPORT int posix_memalign(void **out, size_t align, size_t size)
{
	OWN(next_alloc.posix_memalign(out, align, size));
	if (!is_pow2(align) || align % sizeof(void *)) {
		int saved = errno; /* posix_memalign says so in its result only */
		if (kasan_enabled)
			kasan_refuse_alignment("invalid-posix-memalign-alignment", "posix_memalign",
			                       align);
		errno = saved;
		return EINVAL;
	}
	void *p = entry_aligned(align, size, API_MEMALIGN);
	if (!p)
		return ENOMEM;
	*out = p;
	return 0;
}

UKASAN_EXPORT void *aligned_alloc(size_t align, size_t size)
{
	OWN(next_alloc.aligned_alloc(align, size));
	if (!is_pow2(align)) {
		if (kasan_enabled)
			kasan_refuse_alignment("invalid-aligned-alloc-alignment", "aligned_alloc",
			                       align);
		errno = EINVAL;
		return NULL;
	}
	return entry_aligned(align, size, API_MEMALIGN);
}

UKASAN_EXPORT void *memalign(size_t align, size_t size)
{
	OWN(next_memalign(align, size));
	/* glibc rounds such an alignment up; ASan refuses it, and a KASAN
	 * program is ASan's. */
	if (align && !is_pow2(align) && kasan_enabled) {
		kasan_refuse_alignment("invalid-allocation-alignment", "memalign", align);
		return NULL;
	}
	return entry_aligned(align, size, API_MEMALIGN);
}

UKASAN_EXPORT void *valloc(size_t size)
{
	OWN(next_alloc.valloc(size));
	void *p = ours(size, os_page_size(), API_MEMALIGN, 0);
	return hook_alloc(p || kasan_enabled ? p : next()->valloc(size), size);
}

UKASAN_EXPORT void *pvalloc(size_t size)
{
	OWN(next_alloc.pvalloc(size));
	size_t page = os_page_size();
	if (size > -page) { /* rounding up to pages overflows */
		if (kasan_enabled)
			kasan_refuse_pvalloc(size);
		errno = ENOMEM;
		return NULL;
	}
	void *p = ours(size ? ALIGN_UP(size, page) : page, page, API_MEMALIGN, 0);
	return hook_alloc(p || kasan_enabled ? p : next()->pvalloc(size), size);
}

UKASAN_EXPORT size_t malloc_usable_size(void *p)
{
	return entry_usable_size(p, (uintptr_t)__builtin_return_address(0));
}

size_t entry_usable_size(void *p, uintptr_t ip)
{
	if (unlikely(kfence_owns(p))) {
		size_t n = kfence_size(p);
		/* A program with its own allocator may hand back one of ours
		 * that it got from __libc_malloc, or a pointer inside one,
		 * which glibc's reads as it would without us. */
		if (n != (size_t)-1 || !next()->own)
			return n == (size_t)-1 ? 0 : n;
	}
	if (unlikely(kasan_enabled) && entry_kasan_takes(p)) {
		size_t n = kasan_usable_size(p);
		if (n != (size_t)-1)
			return n;
		/* As the kernel's ksize: asking about a freed object reads it. */
		kasan_check_range((uintptr_t)p, 1, 0, ip);
		return 0;
	}
	return p && next()->usable_size ? next()->usable_size(p) : 0;
}

/* C++. A failed throwing new hands over to libstdc++'s own, which runs the
 * new-handler and throws std::bad_alloc. */
static void *cxx_fallback(size_t size, size_t align)
{
	const struct next_alloc *n = next();
	if (align)
		return n->cxx_new_aligned ? n->cxx_new_aligned(size, align) : NULL;
	return n->cxx_new ? n->cxx_new(size) : NULL;
}

static __attribute__((noinline)) void *cxx_new(size_t size, int api)
{
	void *p = entry_alloc(size, api);
	if (p)
		return p;
	refused_once = size > kasan_max_allocation && kasan_enabled;
	return cxx_fallback(size, 0);
}

static void *cxx_new_aligned(size_t size, size_t align, int api)
{
	void *p = entry_aligned(align, size, api);
	if (p)
		return p;
	refused_once = size > kasan_max_allocation && kasan_enabled;
	return cxx_fallback(size, align);
}

/* Mangled names: new(size_t), new[](size_t), the nothrow, aligned and sized
 * forms, and every matching delete. */
static __attribute__((noinline)) void *new_slow(size_t n)
{
	OWN(own_alloc.new_[0](n));
	return cxx_new(n, API_NEW);
}

UKASAN_EXPORT void *_Znwm(size_t n)
{
	if (fast_path() && n && likely(!next_alloc.own)) {
		void *p;
		kfence_countdown--;
		if (likely((p = next_alloc.malloc(n)) != NULL))
			return p;
	}
	return new_slow(n);
}
UKASAN_EXPORT void *_Znam(size_t n)
{
	OWN(own_alloc.new_[1](n));
	return cxx_new(n, API_NEW_ARRAY);
}
UKASAN_EXPORT void *_ZnwmRKSt9nothrow_t(size_t n, const void *tag)
{
	OWN(own_alloc.new_nothrow[0](n, tag));
	(void)tag;
	return entry_alloc(n, API_NEW);
}
UKASAN_EXPORT void *_ZnamRKSt9nothrow_t(size_t n, const void *tag)
{
	OWN(own_alloc.new_nothrow[1](n, tag));
	(void)tag;
	return entry_alloc(n, API_NEW_ARRAY);
}
UKASAN_EXPORT void *_ZnwmSt11align_val_t(size_t n, size_t al)
{
	OWN(own_alloc.new_aligned[0](n, al));
	return cxx_new_aligned(n, al, API_NEW);
}
UKASAN_EXPORT void *_ZnamSt11align_val_t(size_t n, size_t al)
{
	OWN(own_alloc.new_aligned[1](n, al));
	return cxx_new_aligned(n, al, API_NEW_ARRAY);
}
UKASAN_EXPORT void *_ZnwmSt11align_val_tRKSt9nothrow_t(size_t n, size_t al, const void *tag)
{
	OWN(own_alloc.new_aligned_nothrow[0](n, al, tag));
	(void)tag;
	return entry_aligned(al, n, API_NEW);
}
UKASAN_EXPORT void *_ZnamSt11align_val_tRKSt9nothrow_t(size_t n, size_t al, const void *tag)
{
	OWN(own_alloc.new_aligned_nothrow[1](n, al, tag));
	(void)tag;
	return entry_aligned(al, n, API_NEW_ARRAY);
}

/* Each passes its family, and the size and alignment it was given, for
 * KASAN's comparison with the object's. The common case as free's; the rest
 * out of line (name_slow), so that it puts no stack frame on that case.
 * args: the call's arguments, in parentheses. */
#define DELETE(name, own_call, api, size, align, args, ...)                                        \
	static __attribute__((noinline)) void name##_slow(void *p, ##__VA_ARGS__)                  \
	{                                                                                          \
		OWN_VOID(own_call);                                                                \
		free_as(p, api, size, align);                                                      \
	}                                                                                          \
	UKASAN_EXPORT void name(void *p, ##__VA_ARGS__)                                            \
	{                                                                                          \
		if (free_fast(p) && likely(!next_alloc.own)) {                                     \
			next_alloc.free(p);                                                        \
			return;                                                                    \
		}                                                                                  \
		name##_slow args;                                                                  \
	}
DELETE(_ZdlPv, own_alloc.del[0](p), API_NEW, 0, 0, (p))
DELETE(_ZdaPv, own_alloc.del[1](p), API_NEW_ARRAY, 0, 0, (p))
DELETE(_ZdlPvm, own_alloc.del_sized[0](p, n), API_NEW, n, 0, (p, n), size_t n)
DELETE(_ZdaPvm, own_alloc.del_sized[1](p, n), API_NEW_ARRAY, n, 0, (p, n), size_t n)
DELETE(_ZdlPvSt11align_val_t, own_alloc.del_aligned[0](p, al), API_NEW, 0, al, (p, al), size_t al)
DELETE(_ZdaPvSt11align_val_t, own_alloc.del_aligned[1](p, al), API_NEW_ARRAY, 0, al, (p, al),
       size_t al)
DELETE(_ZdlPvmSt11align_val_t, own_alloc.del_sized_aligned[0](p, n, al), API_NEW, n, al, (p, n, al),
       size_t n, size_t al)
DELETE(_ZdaPvmSt11align_val_t, own_alloc.del_sized_aligned[1](p, n, al), API_NEW_ARRAY, n, al,
       (p, n, al), size_t n, size_t al)
DELETE(_ZdlPvRKSt9nothrow_t, own_alloc.del_nothrow[0](p, tag), API_NEW, 0, 0, (p, tag),
       const void *tag)
DELETE(_ZdaPvRKSt9nothrow_t, own_alloc.del_nothrow[1](p, tag), API_NEW_ARRAY, 0, 0, (p, tag),
       const void *tag)
DELETE(_ZdlPvSt11align_val_tRKSt9nothrow_t, own_alloc.del_aligned_nothrow[0](p, al, tag), API_NEW,
       0, al, (p, al, tag), size_t al, const void *tag)
DELETE(_ZdaPvSt11align_val_tRKSt9nothrow_t, own_alloc.del_aligned_nothrow[1](p, al, tag),
       API_NEW_ARRAY, 0, al, (p, al, tag), size_t al, const void *tag)
