/* AddressSanitizer's manual poisoning interface (sanitizer/asan_interface.h),
 * which programs with allocators of their own call through the
 * ASAN_POISON_MEMORY_REGION macros whenever __SANITIZE_ADDRESS__ is
 * defined, as it is under ukasan-cc: without it they would not link. An
 * access to memory poisoned so is reported as a use-after-poison. */
#include "../base/compiler.h"
#include "../shadow/shadow.h"
#include "kasan.h"

/* Whole granules inside the region only: the bytes before it in its first
 * granule, and after it in its last, may belong to something else. */
UKASAN_EXPORT void __asan_poison_memory_region(const volatile void *addr, size_t size)
{
	uintptr_t beg = (uintptr_t)addr, end = beg + size;
	if (!kasan_enabled || !size || end < beg || !shadow_covers(beg) || !shadow_covers(end - 1))
		return;
	uintptr_t first = ALIGN_UP(beg, GRANULE), last = ALIGN_DOWN(end, GRANULE);
	if (beg & (GRANULE - 1)) {
		int8_t *s = shadow_of(beg);
		int8_t keep = (int8_t)(beg & (GRANULE - 1));
		/* The first bytes stay accessible if they were. */
		if (first <= end && (*s == 0 || *s > keep))
			*s = keep;
	}
	if (last > first)
		shadow_poison(first, last - first, SHADOW_USER_POISON);
}

UKASAN_EXPORT void __asan_unpoison_memory_region(const volatile void *addr, size_t size)
{
	uintptr_t beg = (uintptr_t)addr, end = beg + size;
	if (!kasan_enabled || !size || end < beg || !shadow_covers(beg) || !shadow_covers(end - 1))
		return;
	uintptr_t first = ALIGN_DOWN(beg, GRANULE);
	int8_t after = (end & (GRANULE - 1)) ? *shadow_of(end) : 0;
	shadow_unpoison(first, end - first);
	/* A last granule that was accessible further than the region stays so. */
	if (after == 0 || (after > 0 && after > (int8_t)(end & (GRANULE - 1))))
		if (end & (GRANULE - 1))
			*shadow_of(end) = after;
}

UKASAN_EXPORT int __asan_address_is_poisoned(const volatile void *addr)
{
	uintptr_t a = (uintptr_t)addr;
	if (!kasan_enabled || !shadow_covers(a))
		return 0;
	int8_t s = *shadow_of(a);
	return s != 0 && (int8_t)(a & (GRANULE - 1)) >= s;
}

UKASAN_EXPORT void *__asan_region_is_poisoned(void *addr, size_t size)
{
	uintptr_t a = (uintptr_t)addr;
	for (size_t i = 0; i < size; i++)
		if (__asan_address_is_poisoned((const void *)(a + i)))
			return (void *)(a + i);
	return NULL;
}
