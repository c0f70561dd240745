/* Fibers and contiguous containers, from <sanitizer/common_interface_defs.h>.
 *
 * A program that switches stacks itself (swapcontext, a coroutine library)
 * says so around each switch. The thread's stack bounds then follow: the
 * unwinders walk the fiber's frames, __asan_handle_no_return clears the
 * fiber's stack rather than nothing, and each fiber keeps its fake stack.
 * A fiber left for good (start with a NULL save) has its stack's marks
 * cleared once the switch is done, so a new fiber on that memory starts
 * clean. */
#include <stddef.h>
#include <stdint.h>

#include "../base/compiler.h"
#include "../config/log.h"
#include "../config/options.h"
#include "../kasan/kasan.h"
#include "../kasan/asan_interface.h"
#include "../stack/stack.h"

static __thread struct {
	uintptr_t lo, hi;
	int pending, leaving;
} next_fiber __attribute__((tls_model("initial-exec")));

UKASAN_EXPORT void __sanitizer_start_switch_fiber(void **fake_stack_save, const void *bottom,
                                                  size_t size)
{
	/* Still on the stack being left: if this thread's bounds were never
	 * looked up, they are found from here, not from the fiber's stack at
	 * the finish. */
	uintptr_t lo, hi;
	(void)stack_bounds(&lo, &hi);
	next_fiber.lo = (uintptr_t)bottom;
	next_fiber.hi = (uintptr_t)bottom + size;
	next_fiber.pending = 1;
	next_fiber.leaving = fake_stack_save == NULL;
	void *fs = kasan_enabled ? kasan_fake_stack_leave(fake_stack_save != NULL) : NULL;
	if (fake_stack_save)
		*fake_stack_save = fs;
}

UKASAN_EXPORT void __sanitizer_finish_switch_fiber(void *fake_stack_save, const void **bottom_old,
                                                   size_t *size_old)
{
	uintptr_t lo = 0, hi = 0;
	if (next_fiber.pending) {
		stack_switch(next_fiber.lo, next_fiber.hi, &lo, &hi);
		if (next_fiber.leaving && kasan_enabled && hi > lo)
			kasan_forget_range(lo, hi - lo);
	} else if (stack_bounds(&lo, &hi) != 0) { /* no switch was started */
		lo = hi = 0;
	}
	next_fiber.pending = 0;
	if (kasan_enabled)
		kasan_fake_stack_enter(fake_stack_save);
	if (bottom_old)
		*bottom_old = (const void *)lo;
	if (size_old)
		*size_old = hi - lo;
}

/* The annotations mark generic mode's shadow; the other modes have none
 * to mark, and verify every container as right. With
 * kasan.detect_container_overflow off (ASan's detect_container_overflow=0)
 * nothing is marked. A container end outside its storage is the program's
 * bug, reported as ASan does (bad-__sanitizer_annotate_contiguous_container),
 * and nothing is marked: the shadow beyond the storage is another object's. */
static int bad_container(const char *type, uintptr_t sb, uintptr_t se, uintptr_t a, uintptr_t b,
                         uintptr_t c, uintptr_t d)
{
	if (sb <= a && a <= se && sb <= b && b <= se && sb <= c && c <= se && sb <= d && d <= se &&
	    sb <= se)
		return 0;
	char detail[200];
	fmt_buf(
	    detail, sizeof(detail),
	    "storage [0x%lx, 0x%lx), container bounds 0x%lx, 0x%lx, 0x%lx, 0x%lx: not all within "
	    "the storage",
	    (unsigned long)sb, (unsigned long)se, (unsigned long)a, (unsigned long)b,
	    (unsigned long)c, (unsigned long)d);
	kasan_report_alloc(type, detail);
	return 1;
}

UKASAN_EXPORT void __sanitizer_annotate_contiguous_container(const void *beg, const void *end,
                                                             const void *old_mid,
                                                             const void *new_mid)
{
	if (!opt.container_overflow ||
	    bad_container("bad-__sanitizer_annotate_contiguous_container", (uintptr_t)beg,
	                  (uintptr_t)end, (uintptr_t)old_mid, (uintptr_t)old_mid,
	                  (uintptr_t)new_mid, (uintptr_t)new_mid))
		return;
	kasan_container_mark((uintptr_t)beg, (uintptr_t)end, (uintptr_t)beg, (uintptr_t)new_mid);
}

UKASAN_EXPORT void __sanitizer_annotate_double_ended_contiguous_container(
    const void *storage_beg, const void *storage_end, const void *old_container_beg,
    const void *old_container_end, const void *new_container_beg, const void *new_container_end)
{
	if (!opt.container_overflow ||
	    bad_container("bad-__sanitizer_annotate_double_ended_contiguous_container",
	                  (uintptr_t)storage_beg, (uintptr_t)storage_end,
	                  (uintptr_t)old_container_beg, (uintptr_t)old_container_end,
	                  (uintptr_t)new_container_beg, (uintptr_t)new_container_end))
		return;
	kasan_container_mark((uintptr_t)storage_beg, (uintptr_t)storage_end,
	                     (uintptr_t)new_container_beg, (uintptr_t)new_container_end);
}

UKASAN_EXPORT const void *
__sanitizer_contiguous_container_find_bad_address(const void *beg, const void *mid, const void *end)
{
	return (const void *)kasan_container_bad((uintptr_t)beg, (uintptr_t)end, (uintptr_t)beg,
	                                         (uintptr_t)mid);
}

UKASAN_EXPORT int __sanitizer_verify_contiguous_container(const void *beg, const void *mid,
                                                          const void *end)
{
	return __sanitizer_contiguous_container_find_bad_address(beg, mid, end) == NULL;
}

UKASAN_EXPORT const void *__sanitizer_double_ended_contiguous_container_find_bad_address(
    const void *storage_beg, const void *container_beg, const void *container_end,
    const void *storage_end)
{
	return (const void *)kasan_container_bad((uintptr_t)storage_beg, (uintptr_t)storage_end,
	                                         (uintptr_t)container_beg,
	                                         (uintptr_t)container_end);
}

UKASAN_EXPORT int __sanitizer_verify_double_ended_contiguous_container(const void *storage_beg,
                                                                       const void *container_beg,
                                                                       const void *container_end,
                                                                       const void *storage_end)
{
	return __sanitizer_double_ended_contiguous_container_find_bad_address(
	           storage_beg, container_beg, container_end, storage_end) == NULL;
}
