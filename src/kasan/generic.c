/* The checks instrumented code calls: __asan_{load,store}N_noabort (outline
 * mode) and __asan_report_* (inline mode, after the compiler's own shadow
 * test failed). */
#include <signal.h>
#include <stdint.h>

#include "../config/log.h"
#include "../platform/os.h"
#include "../shadow/shadow.h"
#include "../stack/stack.h"
#include "kasan.h"
#include "object.h"

#define RET_IP ((uintptr_t)__builtin_return_address(0))

int generic_check_range(uintptr_t addr, size_t size, int write, uintptr_t ip)
{
	if (unlikely(!size) || !kasan_enabled)
		return 1;
	if (unlikely(!shadow_range_ok(addr, size))) {
		kasan_report(addr, size, write, ip);
		return 0;
	}
	return 1;
}

/* Sizes 1 to 16 within at most two granules: one or two shadow loads. */
static inline int check_small(uintptr_t a, size_t n, int write, uintptr_t ip)
{
	uintptr_t last = a + n - 1;
	if (likely(shadow_covers(a) && shadow_covers(last))) {
		int8_t s = *shadow_of(last);
		if (likely(s == 0 || (int8_t)(last & (GRANULE - 1)) < s)) {
			if (likely((a >> SHADOW_SCALE) == (last >> SHADOW_SCALE)))
				return 1;
			if (*shadow_of(a) == 0 && (n <= GRANULE || *shadow_of(a + GRANULE) == 0))
				return 1;
		}
	}
	return generic_check_range(a, n, write, ip);
}

#define CHECKS(n)                                                                                  \
	UKASAN_EXPORT void __asan_load##n##_noabort(uintptr_t a)                                   \
	{                                                                                          \
		check_small(a, n, 0, RET_IP);                                                      \
	}                                                                                          \
	UKASAN_EXPORT void __asan_store##n##_noabort(uintptr_t a)                                  \
	{                                                                                          \
		check_small(a, n, 1, RET_IP);                                                      \
	}
CHECKS(1)
CHECKS(2)
CHECKS(4)
CHECKS(8)
CHECKS(16)

/* The inline checks' report calls: on x86-64 in arch/x86_64/callbacks.S, where
 * they keep every register. */
#if !defined(__x86_64__)
#define REPORTS(n)                                                                                 \
	UKASAN_EXPORT void __asan_report_load##n##_noabort(uintptr_t a)                            \
	{                                                                                          \
		kasan_report(a, n, 0, RET_IP);                                                     \
	}                                                                                          \
	UKASAN_EXPORT void __asan_report_store##n##_noabort(uintptr_t a)                           \
	{                                                                                          \
		kasan_report(a, n, 1, RET_IP);                                                     \
	}
REPORTS(1)
REPORTS(2)
REPORTS(4)
REPORTS(8)
REPORTS(16)

UKASAN_EXPORT void __asan_report_load_n_noabort(uintptr_t a, size_t n)
{
	kasan_report(a, n, 0, RET_IP);
}

UKASAN_EXPORT void __asan_report_store_n_noabort(uintptr_t a, size_t n)
{
	kasan_report(a, n, 1, RET_IP);
}
#endif

/* Code built with UKASAN_RECOVER=0 (-fno-sanitize-recover=kernel-address)
 * calls these: the compiler treats the report as the end of the path, so
 * the program cannot go on after it, whatever kasan.fault says. */
#define HALTING_CHECKS(n)                                                                          \
	UKASAN_EXPORT void __asan_load##n(uintptr_t a)                                             \
	{                                                                                          \
		if (!check_small(a, n, 0, RET_IP))                                                 \
			kasan_halt_unrecoverable();                                                \
	}                                                                                          \
	UKASAN_EXPORT void __asan_store##n(uintptr_t a)                                            \
	{                                                                                          \
		if (!check_small(a, n, 1, RET_IP))                                                 \
			kasan_halt_unrecoverable();                                                \
	}                                                                                          \
	UKASAN_EXPORT __attribute__((noreturn)) void __asan_report_load##n(uintptr_t a)            \
	{                                                                                          \
		kasan_report(a, n, 0, RET_IP);                                                     \
		kasan_halt_unrecoverable();                                                        \
	}                                                                                          \
	UKASAN_EXPORT __attribute__((noreturn)) void __asan_report_store##n(uintptr_t a)           \
	{                                                                                          \
		kasan_report(a, n, 1, RET_IP);                                                     \
		kasan_halt_unrecoverable();                                                        \
	}
HALTING_CHECKS(1)
HALTING_CHECKS(2)
HALTING_CHECKS(4)
HALTING_CHECKS(8)
HALTING_CHECKS(16)

UKASAN_EXPORT void __asan_loadN(uintptr_t a, size_t n)
{
	if (!kasan_check_range(a, n, 0, RET_IP))
		kasan_halt_unrecoverable();
}

UKASAN_EXPORT void __asan_storeN(uintptr_t a, size_t n)
{
	if (!kasan_check_range(a, n, 1, RET_IP))
		kasan_halt_unrecoverable();
}

UKASAN_EXPORT __attribute__((noreturn)) void __asan_report_load_n(uintptr_t a, size_t n)
{
	kasan_report(a, n, 0, RET_IP);
	kasan_halt_unrecoverable();
}

UKASAN_EXPORT __attribute__((noreturn)) void __asan_report_store_n(uintptr_t a, size_t n)
{
	kasan_report(a, n, 1, RET_IP);
	kasan_halt_unrecoverable();
}

UKASAN_EXPORT void __asan_loadN_noabort(uintptr_t a, size_t n)
{
	kasan_check_range(a, n, 0, RET_IP);
}

UKASAN_EXPORT void __asan_storeN_noabort(uintptr_t a, size_t n)
{
	kasan_check_range(a, n, 1, RET_IP);
}

/* For the interceptors linked into instrumented programs: 0 when the range
 * is bad, so they skip the operation, as the kernel's checked memcpy does. */
UKASAN_EXPORT int __ukasan_check_range(uintptr_t a, size_t n, int write, uintptr_t ip)
{
	return kasan_check_range(a, n, write, ip);
}

/* The bounds of this library's code, from the linker; hidden, so that the
 * program's own symbols of these names cannot stand in for them. */
extern const char __ehdr_start[] __attribute__((visibility("hidden")));
extern const char _etext[] __attribute__((visibility("hidden")));

/* For the program's __memcpy_chk/__memmove_chk/__memset_chk interposers:
 * the runtime's own copies (rt_memcpy...) call those names, and the program
 * exports its definitions to every library that refers to them, this one
 * included. Shadow memory is not program memory to check. */
UKASAN_EXPORT int __ukasan_runtime_ip(uintptr_t ip)
{
	return ip >= (uintptr_t)__ehdr_start && ip < (uintptr_t)_etext;
}

/* From the register-preserving checks and reports (arch/x86_64/callbacks.S).
 * The access is checked again in full, so a 16-byte access over a partial
 * granule gets an exact verdict. */
UKASAN_EXPORT void __ukasan_access_failed(uintptr_t addr, size_t size, int write, uintptr_t ip)
{
	if (kasan_enabled && !shadow_range_ok(addr, size))
		kasan_report_from(addr, size, write, ip);
}

/* A KFENCE object in generic mode: every check sees the rest of its page as
 * redzone, so an overread within the page is caught at the access, not only
 * as a corrupted canary at free; kfence_report_access names the object. */
void kasan_kfence_object_placed(uintptr_t page, size_t page_size, uintptr_t obj, size_t size)
{
	shadow_poison(page, page_size, SHADOW_SLAB_REDZONE);
	shadow_unpoison(obj, size);
}

/* Freed: the protected page, not the shadow, catches the next access. */
void kasan_kfence_object_freed(uintptr_t page, size_t page_size)
{
	shadow_release(page, page_size);
}

void generic_thread_stack_clear(void)
{
	uintptr_t lo, hi;
	if (kasan_enabled && stack_bounds(&lo, &hi) == 0)
		shadow_release(lo, hi - lo);
}

/* The common allocator core's marking, with shadow bytes. */
void generic_poison_redzone(uintptr_t addr, size_t size, int large)
{
	shadow_poison(addr, size, large ? SHADOW_PAGE_REDZONE : SHADOW_SLAB_REDZONE);
}

void generic_unpoison(uintptr_t addr, size_t size)
{
	shadow_unpoison(addr, size);
}

void generic_unpoison_resident(uintptr_t addr, size_t size)
{
	shadow_unpoison_resident(addr, size);
}

void generic_poison_free(uintptr_t addr, size_t size, int large)
{
	shadow_poison(addr, size, large ? SHADOW_PAGE_FREE : SHADOW_SLAB_FREETRACK);
}

void generic_release(uintptr_t addr, size_t size)
{
	shadow_release(addr, size);
}

/* The chunk header of p if p is the start of one of our objects, live or
 * quarantined; NULL for anything else (interior, foreign, wild pointers). */
struct chunk *generic_chunk_of(uintptr_t p)
{
	if (large_owns(p)) {
		struct large_meta *m = large_meta_of(p);
		return m ? &m->c : NULL;
	}
	if ((p & 15) || !shadow_covers(p) || !shadow_covers(p - 16) || p < 4096)
		return NULL;
	uint8_t left = (uint8_t)*shadow_of(p - 1), head = (uint8_t)*shadow_of(p - 16);
	uint8_t here = (uint8_t)*shadow_of(p);
	if ((left != SHADOW_SLAB_REDZONE && left != SHADOW_PAGE_REDZONE) || head != left)
		return NULL;
	struct chunk *c = (struct chunk *)p - 1;
	uint8_t st = c->state & ~CHUNK_LARGE;
	if (st != CHUNK_LIVE && st != CHUNK_QUARANTINED)
		return NULL;
	/* Only an empty object starts with redzone shadow. */
	if ((here == SHADOW_SLAB_REDZONE || here == SHADOW_PAGE_REDZONE) && chunk_size(c) != 0)
		return NULL;
	return c;
}

/* Reports: the object addr belongs to, or the one whose redzone it is in. */
struct chunk *generic_find_chunk(uintptr_t addr)
{
	if (large_owns(addr)) {
		struct large_meta *m = large_find(addr);
		return m ? &m->c : NULL;
	}
	if (!shadow_covers(addr))
		return NULL;
	uintptr_t a = ALIGN_DOWN(addr, GRANULE);
	uint8_t s = (uint8_t)*shadow_of(a);
	const size_t limit = 1ul << 32;
	if (s == SHADOW_SLAB_FREETRACK || s == SHADOW_PAGE_FREE || s < 0x80) {
		/* Inside an object: walk left to its start. */
		for (size_t walked = 0; walked < limit && shadow_covers(a - GRANULE); walked += 8) {
			uint8_t l = (uint8_t)*shadow_of(a - GRANULE);
			if (l == SHADOW_SLAB_REDZONE || l == SHADOW_PAGE_REDZONE)
				return generic_chunk_of(a);
			if (l != s && !(s < 0x80 && l < 0x80))
				return NULL;
			a -= GRANULE;
		}
		return NULL;
	}
	if (s != SHADOW_SLAB_REDZONE && s != SHADOW_PAGE_REDZONE)
		return NULL;
	/* In a redzone: the nearest object on either side. */
	struct chunk *left = NULL, *right = NULL;
	uintptr_t l = a, r = a;
	size_t dl = 0, dr = 0;
	/* An empty object is all redzone in the shadow: only its header finds it. */
	struct chunk *here = generic_chunk_of(ALIGN_DOWN(addr, 16));
	if (here && chunk_size(here) == 0)
		return here;
	for (; dl < (64u << 10) && shadow_covers(l - GRANULE); dl += GRANULE, l -= GRANULE) {
		if (!(l & 15) && (left = generic_chunk_of(l)) && chunk_size(left) == 0)
			break;
		left = NULL;
		uint8_t v = (uint8_t)*shadow_of(l - GRANULE);
		if (v != SHADOW_SLAB_REDZONE && v != SHADOW_PAGE_REDZONE) {
			left = generic_find_chunk(l - GRANULE);
			break;
		}
	}
	for (; dr < (64u << 10) && shadow_covers(r + GRANULE); dr += GRANULE, r += GRANULE) {
		if (!((r + GRANULE) & 15) && (right = generic_chunk_of(r + GRANULE)) &&
		    chunk_size(right) == 0)
			break;
		right = NULL;
		uint8_t v = (uint8_t)*shadow_of(r + GRANULE);
		if (v != SHADOW_SLAB_REDZONE && v != SHADOW_PAGE_REDZONE) {
			right = generic_chunk_of(r + GRANULE);
			break;
		}
	}
	if (left && right)
		return addr - (chunk_object(left) + chunk_size(left)) <= chunk_object(right) - addr
		           ? left
		           : right;
	return left ? left : right;
}
