#ifndef UKASAN_INTERCEPTORS_INTERCEPT_H
#define UKASAN_INTERCEPTORS_INTERCEPT_H

#include <dlfcn.h>
#include <stddef.h>
#include <stdint.h>

#include "../base/compiler.h"
#include "../shadow/shadow.h"

/* In libukasan.so. */
/* 0 when the range is bad (and reported): the caller then skips the
 * operation, as the kernel's checked memcpy does. */
int __ukasan_check_range(uintptr_t addr, size_t size, int write, uintptr_t ip);

/* AddressSanitizer's memcpy-param-overlap and its kin: type names the
 * function ("strcpy-param-overlap"), [a, a+an) is the destination. The
 * call then goes on, as ASan's recovery lets it. */
void __ukasan_report_overlap(const char *type, uintptr_t a, size_t an, uintptr_t b, size_t bn,
                             uintptr_t ip);

/* ASan's strict_string_checks (kasan.strict_string_checks): a string
 * argument is checked to its terminator, not only as far as the call
 * read it. */
extern int __ukasan_strict_string_checks;

/* Whether a return address is in libukasan.so: its own copies call the
 * fortified names this program interposes (fortify.c). */
int __ukasan_runtime_ip(uintptr_t ip);

/* glibc's copies, for the interceptors' own work once they have checked:
 * __memcpy_chk and friends are interposed in this program too (fortify.c),
 * and would check again. */
#define HIDDEN __attribute__((visibility("hidden")))
HIDDEN void *libc_memcpy(void *d, const void *s, size_t n);
HIDDEN void *libc_memmove(void *d, const void *s, size_t n);
HIDDEN void *libc_memset(void *d, int c, size_t n);

/* glibc's fortify failure: "*** buffer overflow detected ***" and abort.
 * The fortified interceptors call it when glibc's own object-size check
 * would have, after their report. */
void __chk_fail(void) __attribute__((noreturn));

/* glibc's implementation, found once; dlsym from here skips this program. */
#define REAL(ret, name, ...)                                                                       \
	static ret (*real_##name)(__VA_ARGS__);                                                    \
	static ret (*get_##name(void))(__VA_ARGS__)                                                \
	{                                                                                          \
		if (!real_##name)                                                                  \
			real_##name = (ret(*)(__VA_ARGS__))dlsym(RTLD_NEXT, #name);                \
		return real_##name;                                                                \
	}

/* Set by libukasan.so once the shadow is mapped and checks are on. */
extern int __ukasan_shadow_live;

/* The common case, a range wholly accessible, decided here without a call
 * into libukasan.so (SQLite's speedtest1 spent a fifth of its time in range
 * checks made by call). Anything else, and anything before the shadow
 * exists, goes to __ukasan_check_range for the exact verdict and the
 * report. */
static inline __attribute__((always_inline)) int range_clean(uintptr_t a, size_t n)
{
	return __builtin_expect(__ukasan_shadow_live, 1) && shadow_range_ok(a, n);
}

static inline __attribute__((always_inline)) int check_range(uintptr_t a, size_t n, int write,
                                                             uintptr_t ip)
{
	return __builtin_expect(range_clean(a, n), 1) || __ukasan_check_range(a, n, write, ip);
}

static inline __attribute__((always_inline)) void
check_overlap(const char *type, const void *a, size_t an, const void *b, size_t bn, uintptr_t ip)
{
	uintptr_t x = (uintptr_t)a, y = (uintptr_t)b;
	/* A copy that overflows one object into the next overlaps too: the
	 * overflow is the bug, and the range check after this reports it.
	 * (Without generic shadow, in the tag modes, overlap is all we see.) */
	if (__builtin_expect(an && bn && x < y + bn && y < x + an, 0) &&
	    (!__ukasan_shadow_live || (shadow_range_ok(x, an) && shadow_range_ok(y, bn))))
		__ukasan_report_overlap(type, x, an, y, bn, ip);
}

#define CHECK_OVERLAP(name, d, dn, s, sn) check_overlap(name "-param-overlap", d, dn, s, sn, RET_IP)

#define CHECK_RANGE(p, n, w) check_range((uintptr_t)(p), (n), (w), RET_IP)
#define CHECK_READ(p, n)     CHECK_RANGE(p, n, 0)
#define CHECK_WRITE(p, n)    CHECK_RANGE(p, n, 1)

#endif
