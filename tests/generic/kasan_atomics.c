// MODE: generic
// VARIANTS: gcc clang gcc-outline clang-outline
// RUN: kasan_multi_shot
// The kernel's kasan_atomics: atomic operations on an int and on a long in
// the redzone just past a 48-byte object: loads, stores, read-modify-writes
// and compare-exchanges, with the out-of-bounds word as the target and as the
// "expected" value. Every one must be reported, as a read for the pure loads
// and a write for everything that may store.
// EXPECT: BUG: KASAN: slab-out-of-bounds in kasan_atomics_helper+0x
// EXPECT-RE: ^Read of size 4 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: The buggy address is located 0 bytes to the right of
// EXPECT: allocated 48-byte region
// EXPECT-RE: ^Write of size 8 at addr [0-9a-f]{16} by task \S+/\d+$
// GCC does not check the "expected" operand of __atomic_compare_exchange_n
// (only the target): those two accesses go unreported with GCC.
// COUNT-CLANG: 29 BUG: KASAN: slab-out-of-bounds in kasan_atomics_helper+0x
// COUNT-CLANG: 29 BUG: KASAN:
// COUNT-GCC: 27 BUG: KASAN: slab-out-of-bounds in kasan_atomics_helper+0x
// COUNT-GCC: 27 BUG: KASAN:
#include "kasan_test.h"

static int count;

/* Reads the redzone without a check. */
__attribute__((no_sanitize("kernel-address"))) static long peek(const void *p, int size)
{
	return size == 4 ? *(const volatile int *)p : *(const volatile long *)p;
}

KASAN_TEST void kasan_atomics_helper(void *unsafe, void *safe, void *obj, int aline)
{
	int *i_unsafe = unsafe, *i_safe = safe, i_old;
	long *l_unsafe = unsafe, *l_safe = safe, l_old;

#define ATOMIC(expression, rw_, size_) do { count++; KASAN_EXPECT_FAIL(expression, .type = "slab-out-of-bounds", .rw = rw_, .size = size_, .addr = unsafe, .obj = obj, .obj_size = 48, .cache = "calloc", .alloc_line = aline); } while (0)
	ATOMIC(kasan_int_result = *(volatile int *)i_unsafe, "Read", 4);
	ATOMIC(*(volatile int *)i_unsafe = 42, "Write", 4);
	ATOMIC(kasan_int_result = __atomic_load_n(i_unsafe, __ATOMIC_ACQUIRE), "Read", 4);
	ATOMIC(__atomic_store_n(i_unsafe, 42, __ATOMIC_RELEASE), "Write", 4);
	ATOMIC(__atomic_fetch_add(i_unsafe, 42, __ATOMIC_RELAXED), "Write", 4);
	ATOMIC(__atomic_fetch_sub(i_unsafe, 42, __ATOMIC_RELAXED), "Write", 4);
	ATOMIC(__atomic_fetch_and(i_unsafe, 42, __ATOMIC_RELAXED), "Write", 4);
	ATOMIC(__atomic_fetch_and(i_unsafe, ~42, __ATOMIC_RELAXED), "Write", 4);
	ATOMIC(__atomic_fetch_or(i_unsafe, 42, __ATOMIC_RELAXED), "Write", 4);
	ATOMIC(__atomic_fetch_xor(i_unsafe, 42, __ATOMIC_RELAXED), "Write", 4);
	ATOMIC(kasan_int_result = __atomic_exchange_n(i_unsafe, 42, __ATOMIC_SEQ_CST), "Write", 4);
	ATOMIC(kasan_int_result = __sync_val_compare_and_swap(i_unsafe, 21, 42), "Write", 4);
	i_old = 21;
	ATOMIC(kasan_int_result = __atomic_compare_exchange_n(i_unsafe, &i_old, 42, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED), "Write", 4);
	ATOMIC(kasan_int_result = __atomic_sub_fetch(i_unsafe, 42, __ATOMIC_SEQ_CST) == 0, "Write", 4);
	ATOMIC(kasan_int_result = __atomic_add_fetch(i_unsafe, 1, __ATOMIC_SEQ_CST) < 0, "Write", 4);
	/* The kernel's try_cmpxchg(safe, unsafe): the out-of-bounds word is the
	 * expected value, read; made to succeed, so that it is not written. */
	*i_safe = (int)peek(i_unsafe, 4);
#ifdef __clang__
	ATOMIC(kasan_int_result = __atomic_compare_exchange_n(i_safe, i_unsafe, 42, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED), "Read", 4);
#else
	count++;
	kasan_int_result = __atomic_compare_exchange_n(i_safe, i_unsafe, 42, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
#endif

	ATOMIC(kasan_int_result = *(volatile long *)l_unsafe, "Read", 8);
	ATOMIC(*(volatile long *)l_unsafe = 42, "Write", 8);
	ATOMIC(kasan_int_result = __atomic_load_n(l_unsafe, __ATOMIC_ACQUIRE), "Read", 8);
	ATOMIC(__atomic_store_n(l_unsafe, 42, __ATOMIC_RELEASE), "Write", 8);
	ATOMIC(__atomic_fetch_add(l_unsafe, 42, __ATOMIC_RELAXED), "Write", 8);
	ATOMIC(__atomic_fetch_sub(l_unsafe, 42, __ATOMIC_RELAXED), "Write", 8);
	ATOMIC(__atomic_fetch_and(l_unsafe, 42, __ATOMIC_RELAXED), "Write", 8);
	ATOMIC(__atomic_fetch_or(l_unsafe, 42, __ATOMIC_RELAXED), "Write", 8);
	ATOMIC(__atomic_fetch_xor(l_unsafe, 42, __ATOMIC_RELAXED), "Write", 8);
	ATOMIC(kasan_int_result = __atomic_exchange_n(l_unsafe, 42, __ATOMIC_SEQ_CST), "Write", 8);
	l_old = 21;
	ATOMIC(kasan_int_result = __atomic_compare_exchange_n(l_unsafe, &l_old, 42, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED), "Write", 8);
	ATOMIC(kasan_int_result = __atomic_add_fetch(l_unsafe, 1, __ATOMIC_SEQ_CST) == 0, "Write", 8);
	*l_safe = peek(l_unsafe, 8);
#ifdef __clang__
	ATOMIC(kasan_int_result = __atomic_compare_exchange_n(l_safe, l_unsafe, 42, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED), "Read", 8);
#else
	count++;
	kasan_int_result = __atomic_compare_exchange_n(l_safe, l_unsafe, 42, 0, __ATOMIC_SEQ_CST, __ATOMIC_RELAXED);
#endif
}

int main(void)
{
	/* As the kernel's: 48 bytes, so that the next 16 are redzone. */
	char *a1 = calloc(1, 48); int aline = __LINE__;
	long *a2 = calloc(1, sizeof(long));

	kasan_atomics_helper(a1 + 48, a2, a1, aline);
	if (count != 29)
		kasan_test_fail("not all the operations ran");
	free(a1);
	free(a2);
	return 0;
}
