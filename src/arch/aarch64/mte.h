/* The Memory Tagging Extension's instructions, for hardware tag mode:
 * a 4-bit allocation tag per 16-byte granule of PROT_MTE memory, a 4-bit
 * pointer tag in bits 56..59 of the address.
 *
 * Written as raw .inst words on fixed registers, not mnemonics: the rest of
 * the runtime is built for plain armv8-a, gcc 12's assembler takes no
 * `.arch_extension memtag` and a function built with a target("+memtag")
 * attribute cannot be inlined into one without it. Fixed registers x9..x11
 * (caller-saved scratch) let each word name its operands.
 *
 * Empty anywhere but on arm64: include it unconditionally. */
#ifndef UKASAN_ARCH_AARCH64_MTE_H
#define UKASAN_ARCH_AARCH64_MTE_H

#if defined(__aarch64__)
#include <stddef.h>
#include <stdint.h>

#define MTE_GRANULE   16
#define MTE_TAG_SHIFT 56
#define MTE_TOP_MASK  (0xfful << MTE_TAG_SHIFT)

/* The pointer tag, bits 56..59. */
static inline unsigned mte_tag_of(uintptr_t p)
{
	return (unsigned)(p >> MTE_TAG_SHIFT) & 0xf;
}

/* p with tag in bits 56..59 and bits 60..63 clear, as irg leaves them. */
static inline uintptr_t mte_with_tag(uintptr_t p, unsigned tag)
{
	return (p & ~MTE_TOP_MASK) | ((uintptr_t)(tag & 0xf) << MTE_TAG_SHIFT);
}

/* irg x9, x9, x10: a random tag from those neither in exclude (bit n =
 * tag n) nor excluded by the thread's GCR_EL1, which Linux sets from the
 * include mask given to prctl (mte_set_mode). With everything excluded
 * irg gives 0. */
static inline unsigned mte_random_tag(uint16_t exclude)
{
	register uintptr_t x9 __asm__("x9") = 0;
	register uint64_t x10 __asm__("x10") = exclude;
	__asm__ volatile(".inst 0x9aca1129" : "+r"(x9) : "r"(x10));
	return mte_tag_of(x9);
}

/* ldg x9, [x9]: the allocation tag of the granule holding addr (0 for
 * memory without PROT_MTE). */
static inline unsigned mte_get_tag(uintptr_t addr)
{
	register uintptr_t x9 __asm__("x9") = addr;
	__asm__ volatile(".inst 0xd9600129" : "+r"(x9) : : "memory");
	return mte_tag_of(x9);
}

/* DCZID_EL0: the block `dc gva` tags, 4 << BS bytes (64 on most cores,
 * 512 under qemu), or 0 when DZP forbids the dc instructions. Read once
 * per file that uses it (threads racing to fill it in store the same
 * value): a system register read is a helper call in qemu. */
static inline size_t mte_dc_block(void)
{
	static size_t block = 1; /* not read yet */
	if (__builtin_expect(block == 1, 0)) {
		uint64_t dczid;
		__asm__("mrs %0, dczid_el0" : "=r"(dczid));
		block = (dczid & 16) ? 0 : (size_t)4 << (dczid & 15);
	}
	return block;
}

/* From this many bytes on, whole blocks go to `dc gva`. Under qemu, 1 KiB
 * starting 16 bytes past a block boundary took 0.53 us so, 0.83 with st2g
 * alone; 4 KiB aligned 0.46 against 3.3. Below it no whole block fits in
 * most ranges. */
#define MTE_DC_MIN 1024

/* st2g x9, [x9], #32 between stg x9, [x9], #16: tags [p, end), both
 * tagged alike and 16-byte aligned; returns end. st2g starts on a 32-byte
 * boundary: qemu splits a misaligned one in two, which made it slower than
 * two stg (1.8 us against 1.6 for 1 KiB). */
static inline uintptr_t mte_st2g_loop(uintptr_t p, uintptr_t end)
{
	register uintptr_t x9 __asm__("x9") = p;
	if ((x9 & MTE_GRANULE) && x9 != end)
		__asm__ volatile(".inst 0xd9201529" : "+r"(x9) : : "memory");
	while (end - x9 >= 2 * MTE_GRANULE)
		__asm__ volatile(".inst 0xd9a02529" : "+r"(x9) : : "memory");
	if (x9 != end)
		__asm__ volatile(".inst 0xd9201529" : "+r"(x9) : : "memory");
	return x9;
}

/* Set the allocation tag of every granule of [addr, addr + size) to tag:
 * addr (tagged or not) and size multiples of 16. Large ranges tag whole
 * DCZID blocks with `dc gva`, the rest granule pairs with st2g. */
static inline void mte_set_tags(uintptr_t addr, size_t size, unsigned tag)
{
	uintptr_t p = mte_with_tag(addr, tag), end = p + size;
	size_t block;
	if (size >= MTE_DC_MIN && (block = mte_dc_block()) != 0) {
		uintptr_t lo = (p + block - 1) & ~(uintptr_t)(block - 1);
		uintptr_t hi = end & ~(uintptr_t)(block - 1);
		if (lo < hi) {
			register uintptr_t x9 __asm__("x9") = mte_st2g_loop(p, lo);
			for (; x9 < hi; x9 += block) /* dc gva, x9 */
				__asm__ volatile(".inst 0xd50b7469" : : "r"(x9) : "memory");
			p = hi;
		}
	}
	mte_st2g_loop(p, end);
}

/* One tag store (tag 0) at the start of each page of fresh memory
 * [addr, addr + len), from one thread, before several threads tag it.
 * qemu-user (7.2) makes a page's tag storage at the first tag store into
 * it, without a lock: when threads make first stores into the same page
 * at once, all but one lose theirs (measured: 4 threads, one granule each
 * per page, 5-8% of tags read back 0; none once each page had one store).
 * On hardware it only commits the pages a moment early. */
static inline void mte_touch_tags(uintptr_t addr, size_t len, size_t page)
{
	for (uintptr_t p = addr; p < addr + len; p += page)
		mte_set_tags(p, MTE_GRANULE, 0);
}

/* PSTATE.TCO: set, this thread's accesses are not tag checked (for reading
 * a faulting object in a report); the signal frame's copy is not honoured
 * by qemu-user, so set it where the code runs. */
static inline void mte_tco_set(int on)
{
	if (on)
		__asm__ volatile(".inst 0xd503419f" : : : "memory"); /* msr tco, #1 */
	else
		__asm__ volatile(".inst 0xd503409f" : : : "memory"); /* msr tco, #0 */
}
#endif

#endif
