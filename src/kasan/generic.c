/* The checks instrumented code calls: __asan_{load,store}N_noabort (outline
 * mode) and __asan_report_* (inline mode, after the compiler's own shadow
 * test failed). */
#include <signal.h>
#include <stdint.h>

#include "../config/log.h"
#include "../platform/os.h"
#include "../shadow/shadow.h"
#include "../stack/stack.h"
#include "generic.h"
#include "kasan.h"
#include "kasan_internal.h"

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
	if (!generic_check_range(a, n, 0, RET_IP))
		kasan_halt_unrecoverable();
}

UKASAN_EXPORT void __asan_storeN(uintptr_t a, size_t n)
{
	if (!generic_check_range(a, n, 1, RET_IP))
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
	generic_check_range(a, n, 0, RET_IP);
}

UKASAN_EXPORT void __asan_storeN_noabort(uintptr_t a, size_t n)
{
	generic_check_range(a, n, 1, RET_IP);
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
void generic_kfence_placed(uintptr_t page, size_t page_size, uintptr_t obj, size_t size)
{
	shadow_poison(page, page_size, SHADOW_SLAB_REDZONE);
	shadow_unpoison(obj, size);
}

/* Freed: the protected page, not the shadow, catches the next access. */
void generic_kfence_freed(uintptr_t page, size_t page_size)
{
	shadow_release(page, page_size);
}

void generic_thread_stack_clear(void)
{
	uintptr_t lo, hi;
	if (kasan_enabled && stack_bounds(&lo, &hi) == 0)
		shadow_release(lo, hi - lo);
}

/* Never ukasan's own memory: a program's bad munmap of it is not a reason
 * to lose the marks of objects that still live there. */
void generic_forget_range(uintptr_t addr, size_t len)
{
	shadow_forget(addr, len);
}
