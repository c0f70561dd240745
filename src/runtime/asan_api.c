/* AddressSanitizer's public interface, <sanitizer/asan_interface.h>:
 * programs built with ukasan-cc see __SANITIZE_ADDRESS__ and
 * __has_feature(address_sanitizer) and call these. Each answers from
 * KASAN's own records; without KASAN (KFENCE alone) they answer "nothing
 * known". The poisoning functions and __asan_handle_no_return live with
 * the generic mode (kasan/user_poison.c, kasan/generic_abi.c); the death
 * and error-report callbacks with the report path. */
#include <stddef.h>
#include <stdint.h>

#include "../base/compiler.h"
#include "../config/log.h"
#include "../kasan/kasan.h"
#include "../kasan/asan_interface.h"
#include "../platform/os.h"
#include "../shadow/shadow.h"
#include "../stack/stack.h"

UKASAN_EXPORT void __asan_describe_address(void *addr)
{
	kasan_print_description((uintptr_t)addr);
}

/* The report getters read the last KASAN report's record: valid in the
 * error-report callback and after a report the program ran on from. */
UKASAN_EXPORT int __asan_report_present(void)
{
	struct kasan_last_access a;
	return kasan_last_access(&a);
}

UKASAN_EXPORT void *__asan_get_report_pc(void)
{
	struct kasan_last_access a;
	return kasan_last_access(&a) ? (void *)a.pc : NULL;
}

/* The record keeps the access's stack as return addresses only, not the
 * frame and stack pointers: 0, as ASan gives when it has none. */
UKASAN_EXPORT void *__asan_get_report_bp(void)
{
	return NULL;
}

UKASAN_EXPORT void *__asan_get_report_sp(void)
{
	return NULL;
}

UKASAN_EXPORT void *__asan_get_report_address(void)
{
	struct kasan_last_access a;
	return kasan_last_access(&a) ? (void *)a.addr : NULL;
}

UKASAN_EXPORT int __asan_get_report_access_type(void)
{
	struct kasan_last_access a;
	return kasan_last_access(&a) ? a.write : 0;
}

UKASAN_EXPORT size_t __asan_get_report_access_size(void)
{
	struct kasan_last_access a;
	return kasan_last_access(&a) ? a.size : 0;
}

/* The bug type, in the kernel's words ("slab-out-of-bounds", not ASan's
 * "heap-buffer-overflow"), as the report's title says it. */
UKASAN_EXPORT const char *__asan_get_report_description(void)
{
	struct kasan_last_access a;
	return kasan_last_access(&a) ? a.bug_type : NULL;
}

static void copy_name(char *name, size_t name_size, const char *s)
{
	if (name && name_size)
		fmt_buf(name, name_size, "%s", s ? s : "");
}

/* ASan's categories: "heap", "global", "stack", "shadow-low", "shadow-gap",
 * "shadow-high", "low", "high", or "unknown" when nothing is known. */
UKASAN_EXPORT const char *__asan_locate_address(void *addr, char *name, size_t name_size,
                                                void **region_address, size_t *region_size)
{
	uintptr_t a = (uintptr_t)addr, beg = 0;
	size_t size = 0;
	const char *where = "unknown", *gname, *file;
	int line;
	struct kasan_place p;
	copy_name(name, name_size, "");
	if (kasan_enabled && !shadow_covers(a) && a >= SHADOW_BEG && a < SHADOW_END) {
		where =
		    a < SHADOW_BEG + (SHADOW_END - SHADOW_BEG) / 8 ? "shadow-low" : "shadow-high";
	} else if (kasan_global_at(a, &gname, &file, &line, &beg, &size)) {
		where = "global";
		copy_name(name, name_size, gname);
	} else if (kasan_place_of(a, &p) && p.region == KASAN_REGION_HEAP) {
		where = "heap";
		beg = p.start;
		size = p.size;
	} else if (p.region == KASAN_REGION_STACK) {
		where = "stack";
		if (p.name[0])
			copy_name(name, name_size, p.name);
		beg = p.start;
		size = p.size;
	} else if (kasan_enabled) {
		where = a < SHADOW_BEG ? "low" : "high";
	}
	if (region_address)
		*region_address = (void *)beg;
	if (region_size)
		*region_size = size;
	return where;
}

static size_t object_stack(void *addr, void **trace, size_t size, int *thread_id, int freed)
{
	struct kasan_place p;
	if (!kasan_place_of((uintptr_t)addr, &p) || p.region != KASAN_REGION_HEAP)
		return 0;
	const struct kasan_track *t = freed ? &p.free : &p.alloc;
	const uintptr_t *pcs;
	int n = t->present ? depot_fetch(t->stack, &pcs) : 0;
	if (!n)
		return 0;
	size_t k = (size_t)n < size ? (size_t)n : size;
	for (size_t i = 0; i < k; i++)
		trace[i] = (void *)pcs[i];
	if (thread_id)
		*thread_id = (int)t->tid;
	return k;
}

/* The thread id is the kernel's (what the reports print), not ASan's own
 * numbering of threads. */
UKASAN_EXPORT size_t __asan_get_alloc_stack(void *addr, void **trace, size_t size, int *thread_id)
{
	return object_stack(addr, trace, size, thread_id, 0);
}

UKASAN_EXPORT size_t __asan_get_free_stack(void *addr, void **trace, size_t size, int *thread_id)
{
	return object_stack(addr, trace, size, thread_id, 1);
}

UKASAN_EXPORT void __asan_get_shadow_mapping(size_t *shadow_scale, size_t *shadow_offset)
{
	if (shadow_scale)
		*shadow_scale = SHADOW_SCALE;
	if (shadow_offset)
		*shadow_offset = SHADOW_OFFSET;
}

/* A report made by the program: it goes through the same pipeline as a
 * check's, its stack starting at pc. */
UKASAN_EXPORT void __asan_report_error(void *pc, void *bp, void *sp, void *addr, int is_write,
                                       size_t access_size)
{
	(void)bp;
	(void)sp;
	if (kasan_enabled)
		kasan_report_from((uintptr_t)addr, access_size, is_write, (uintptr_t)pc);
}

/* ASan's allocator statistics are kasan.stats' here: printed at exit. */
UKASAN_EXPORT void __asan_print_accumulated_stats(void)
{
	if (kasan_enabled)
		kasan_print_stats();
}

UKASAN_EXPORT int __asan_update_allocation_context(void *addr)
{
	return kasan_update_alloc_context((uintptr_t)addr);
}

UKASAN_EXPORT void *__asan_get_current_fake_stack(void)
{
	return kasan_enabled ? kasan_fake_stack_current() : NULL;
}

UKASAN_EXPORT void *__asan_addr_is_in_fake_stack(void *fake_stack, void *addr, void **beg,
                                                 void **end)
{
	uintptr_t b, e;
	void *real = kasan_fake_stack_frame(fake_stack, (uintptr_t)addr, &b, &e);
	if (!real)
		return NULL;
	if (beg)
		*beg = (void *)b;
	if (end)
		*end = (void *)e;
	return real;
}

/* clang's array cookies: new T[n] of a type with a destructor stores n in
 * the word before the elements and poisons it; delete[] reads it back here
 * rather than with a checked load. */
UKASAN_EXPORT void __asan_poison_cxx_array_cookie(uintptr_t p)
{
	kasan_poison_cookie(p);
}

UKASAN_EXPORT uintptr_t __asan_load_cxx_array_cookie(uintptr_t *p)
{
	return kasan_load_cookie(p);
}
