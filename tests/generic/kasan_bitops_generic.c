// MODE: generic
// VARIANTS: gcc clang gcc-outline clang-outline
// RUN: kasan_multi_shot
// The kernel's kasan_bitops_generic: bit operations on the long that holds
// bit BITS_PER_LONG (and BITS_PER_LONG + 8) of a 9-byte object: that long is
// bytes 8..15, only the first of which is in the object. Atomic ones
// (__atomic_fetch_or...: set_bit, clear_bit, change_bit, test_and_*) and
// plain ones (__set_bit...) are all 8-byte accesses to it; test_bit is a
// read. A plain read-modify-write is reported as the read (the kernel's
// __set_bit checks a write explicitly; here the compiler checks the load
// first). The allocation leaves room up to 16 bytes: nothing is corrupted.
// EXPECT: BUG: KASAN: slab-out-of-bounds in kasan_bitops_generic+0x
// EXPECT-RE: ^Write of size 8 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: The buggy address is located 8 bytes inside of
// EXPECT: allocated 9-byte region
// COUNT: 13 BUG: KASAN: slab-out-of-bounds in kasan_bitops_generic+0x
// COUNT: 13 BUG: KASAN:
#include "kasan_test.h"

#define BITS_PER_LONG (8 * sizeof(long))
#define BIT_WORD(nr) ((nr) / BITS_PER_LONG)
#define BIT_MASK(nr) (1ul << ((nr) % BITS_PER_LONG))

KASAN_TEST void kasan_bitops_generic(void)
{
	unsigned long *bits = calloc(1, sizeof(*bits) + 1); int aline = __LINE__;
	size_t nr = BITS_PER_LONG, nr2 = BITS_PER_LONG + 8;
	unsigned long *w = &bits[BIT_WORD(nr)], *w2 = &bits[BIT_WORD(nr2)];

	OPTIMIZER_HIDE_VAR(w);
	OPTIMIZER_HIDE_VAR(w2);
#define BITOP(expression, rw_, word) KASAN_EXPECT_FAIL(expression, .type = "slab-out-of-bounds", .rw = rw_, .size = 8, .addr = word, .bad = (char *)bits + 9, .obj = bits, .obj_size = 9, .cache = "calloc", .alloc_line = aline)
	/* set_bit, __set_bit, clear_bit, __clear_bit, clear_bit_unlock,
	 * change_bit, __change_bit */
	BITOP(__atomic_fetch_or(w, BIT_MASK(nr), __ATOMIC_RELAXED), "Write", w);
	BITOP(*(volatile unsigned long *)w |= BIT_MASK(nr), "Read", w);
	BITOP(__atomic_fetch_and(w, ~BIT_MASK(nr), __ATOMIC_RELAXED), "Write", w);
	BITOP(*(volatile unsigned long *)w &= ~BIT_MASK(nr), "Read", w);
	BITOP(__atomic_fetch_and(w, ~BIT_MASK(nr), __ATOMIC_RELEASE), "Write", w);
	BITOP(__atomic_fetch_xor(w, BIT_MASK(nr), __ATOMIC_RELAXED), "Write", w);
	BITOP(*(volatile unsigned long *)w ^= BIT_MASK(nr), "Read", w);
	/* test_and_set_bit, test_and_set_bit_lock, test_and_clear_bit,
	 * test_and_change_bit, __test_and_set_bit, test_bit */
	BITOP(kasan_int_result = !!(__atomic_fetch_or(w2, BIT_MASK(nr2), __ATOMIC_SEQ_CST) & BIT_MASK(nr2)), "Write", w2);
	BITOP(kasan_int_result = !!(__atomic_fetch_or(w2, BIT_MASK(nr2), __ATOMIC_ACQUIRE) & BIT_MASK(nr2)), "Write", w2);
	BITOP(kasan_int_result = !!(__atomic_fetch_and(w2, ~BIT_MASK(nr2), __ATOMIC_SEQ_CST) & BIT_MASK(nr2)), "Write", w2);
	BITOP(kasan_int_result = !!(__atomic_fetch_xor(w2, BIT_MASK(nr2), __ATOMIC_SEQ_CST) & BIT_MASK(nr2)), "Write", w2);
	BITOP(kasan_int_result = !!(*(volatile unsigned long *)w2 & BIT_MASK(nr2)), "Read", w2);
	BITOP(kasan_int_result = !!(__atomic_load_n(w2, __ATOMIC_RELAXED) & BIT_MASK(nr2)), "Read", w2);
	free(bits);
}

int main(void)
{
	kasan_bitops_generic();
	return 0;
}
