// MODE: generic
// VARIANTS: gcc clang
// RUN: kasan_multi_shot
// AddressSanitizer's manual poisoning, as programs with pools of their own
// use it (ASAN_POISON_MEMORY_REGION whenever __SANITIZE_ADDRESS__ is set,
// as ukasan-cc sets it): an access to a poisoned range is a
// use-after-poison; unpoisoned, it is fine again; a poisoned range that
// starts inside a granule leaves the bytes before it accessible.
// EXPECT: BUG: KASAN: use-after-poison in user_poison+0x
// EXPECT-RE: ^Read of size 1 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: BUG: KASAN: use-after-poison in user_poison+0x
// EXPECT-RE: ^Write of size 4 at addr [0-9a-f]{16} by task \S+/\d+$
// COUNT: 2 BUG: KASAN:
#include "kasan_test.h"

#include <sanitizer/asan_interface.h>

static char pool[256] __attribute__((aligned(16)));

KASAN_TEST void user_poison(void)
{
	char *p = pool;
	OPTIMIZER_HIDE_VAR(p);
	ASAN_POISON_MEMORY_REGION(p + 64, 64);
	if (!__asan_address_is_poisoned(p + 64) || __asan_address_is_poisoned(p + 63) ||
	    !__asan_address_is_poisoned(p + 127) || __asan_address_is_poisoned(p + 128))
		kasan_test_fail("__asan_address_is_poisoned");
	if (__asan_region_is_poisoned(p, 256) != p + 64)
		kasan_test_fail("__asan_region_is_poisoned");
	KASAN_EXPECT_FAIL(kasan_int_result = ((volatile char *)p)[70], .type = "use-after-poison", .rw = "Read", .size = 1, .addr = p + 70);
	kasan_int_result = ((volatile char *)p)[63];
	ASAN_UNPOISON_MEMORY_REGION(p + 64, 64);
	kasan_int_result = ((volatile char *)p)[70];
	/* From byte 133 on: 128..132 stay accessible. */
	ASAN_POISON_MEMORY_REGION(p + 133, 27);
	kasan_int_result = ((volatile char *)p)[132];
	KASAN_EXPECT_FAIL(*(volatile int *)(p + 136) = 1, .type = "use-after-poison", .rw = "Write", .size = 4, .addr = p + 136);
	ASAN_UNPOISON_MEMORY_REGION(p + 128, 32);
	*(volatile int *)(p + 136) = 1;
}

int main(void)
{
	user_poison();
	return 0;
}
