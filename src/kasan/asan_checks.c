/* AddressSanitizer's checks that the kernel's KASAN has no counterpart for,
 * reported through the one pipeline (report.c): copies whose source and
 * destination overlap (found by the interceptors linked into the program),
 * pointers into different objects compared or subtracted (GCC's
 * -fsanitize=pointer-compare/pointer-subtract and clang's
 * -asan-detect-invalid-pointer-{cmp,sub} call __sanitizer_ptr_cmp/sub), and
 * the flag the interceptors read for strict string checks. */
#include "../base/compiler.h"
#include "../config/options.h"
#include "../platform/os.h"
#include "../shadow/shadow.h"
#include "../stack/stack.h"
#include "generic.h"
#include "kasan.h"
#include "kasan_internal.h"
#include "mode.h"
#include "shared.h"

/* Read by the interceptors (interceptors/intercept.h): set once the
 * options are read, before the program's constructors run. */
UKASAN_EXPORT int __ukasan_strict_string_checks;

__attribute__((constructor(102))) static void asan_checks_init(void)
{
	__ukasan_strict_string_checks = opt.strict_string_checks != 0;
}

/* type names the function, as ASan's "strcpy-param-overlap"; [a, a+an) is
 * the destination's range. The program's string outlives the report. */
UKASAN_EXPORT void __ukasan_report_overlap(const char *type, uintptr_t a, size_t an, uintptr_t b,
                                           size_t bn, uintptr_t ip)
{
	if (kasan_enabled && kasan_ops)
		kasan_report_pair(type, a, an, b, bn, ip);
}

/* What a pointer points into, as an identity two pointers share when they
 * are in the same object: the heap object's start, the global's, or the
 * shadow byte after a stack variable's left redzone (its frame's objects
 * are told apart by the redzones between them). One past the end belongs
 * to the object, as C lets such a pointer be compared. */
enum pointee { IN_NOTHING, IN_HEAP, IN_GLOBAL, IN_STACK };

static int stack_redzone(const int8_t *s)
{
	uint8_t v = (uint8_t)*s;
	return v == SHADOW_STACK_LEFT || v == SHADOW_STACK_MID || v == SHADOW_STACK_RIGHT;
}

static enum pointee pointee(uintptr_t p, uintptr_t *id)
{
	if (!p || !shadow_covers(p))
		return IN_NOTHING;
	const struct chunk *c = generic_find_chunk(p);
	if (c && p >= chunk_object(c) && p <= chunk_object(c) + chunk_size(c)) {
		*id = chunk_object(c);
		return IN_HEAP;
	}
	const struct asan_global *g = generic_find_global(p);
	if (g && p >= g->beg && p <= g->beg + g->size) {
		*id = g->beg;
		return IN_GLOBAL;
	}
	uintptr_t lo, hi;
	if (stack_bounds(&lo, &hi) != 0 || p < lo || p >= hi)
		return IN_NOTHING;
	const int8_t *s = shadow_of(p), *bottom = shadow_of(lo);
	if (stack_redzone(s) && !(p & (GRANULE - 1)) && p > lo && !stack_redzone(s - 1))
		s--; /* one past a variable's end */
	while (s >= bottom && !stack_redzone(s))
		s--;
	*id = (uintptr_t)(s + 1);
	return IN_STACK;
}

/* As ASan: pointers close together are in different objects when poison
 * lies between them; others when both are known and not the same one. A
 * pointer into memory ukasan knows nothing of (mmap, another allocator,
 * another thread's stack) is reported only against one into this
 * thread's stack, which it cannot share an object with (ASan's
 * invalid-pointer-pairs-threads: main's local against a thread's). Two
 * such pointers are not reported: they may well be in one variable of
 * another thread's frame. */
static int invalid_pair(uintptr_t a, uintptr_t b)
{
	uintptr_t lo = a < b ? a : b, hi = a < b ? b : a, ida = 0, idb = 0;
	if (a == b)
		return 0;
	/* Not in the first page, whose shadow says null-ptr-deref, not
	 * redzone: small integers used as pointers ((void *)1 against
	 * (void *)2, clang's check of a pointer cast to an index) are no
	 * objects at all, as for ASan. */
	if (lo >= os_page_size() && hi - lo <= 2048 && shadow_covers(lo) && shadow_covers(hi - 1))
		return !shadow_range_ok(lo, hi - lo);
	enum pointee ka = pointee(a, &ida), kb = pointee(b, &idb);
	if (ka == IN_NOTHING || kb == IN_NOTHING) {
		if (!a || !b)
			return opt.invalid_pointer_pairs >= 2 && (ka || kb);
		return ka == IN_STACK || kb == IN_STACK;
	}
	return ka != kb || ida != idb;
}

static void check_pair(uintptr_t a, uintptr_t b, uintptr_t ip)
{
	unsigned long level = opt.invalid_pointer_pairs;
	if (!level || kasan_ops != &generic_ops || (level == 1 && (!a || !b)))
		return;
	if (invalid_pair(a, b))
		kasan_report_pair("invalid-pointer-pair", a, 0, b, 0, ip);
}

UKASAN_EXPORT void __sanitizer_ptr_cmp(void *a, void *b)
{
	check_pair((uintptr_t)a, (uintptr_t)b, RET_IP);
}

UKASAN_EXPORT void __sanitizer_ptr_sub(void *a, void *b)
{
	check_pair((uintptr_t)a, (uintptr_t)b, RET_IP);
}
