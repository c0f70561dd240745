/* Generic KASAN shadow: one byte per 8-byte granule, the kernel's encoding.
 *   shadow(addr) = (addr >> 3) + SHADOW_OFFSET
 * 00 all accessible, 01..07 the first k bytes, negative values poisoned. */
#ifndef UKASAN_SHADOW_SHADOW_H
#define UKASAN_SHADOW_SHADOW_H

#include <stddef.h>
#include <stdint.h>

#include "../arch/arch.h"

#define SHADOW_SCALE  3
#define GRANULE       8ul
#define SHADOW_OFFSET ((uintptr_t)ARCH_SHADOW_OFFSET)

enum shadow_code {
	SHADOW_PAGE_FREE = 0xff,
	SHADOW_PAGE_REDZONE = 0xfe,
	SHADOW_SLAB_REDZONE = 0xfc,
	SHADOW_SLAB_FREE = 0xfb,
	SHADOW_SLAB_FREETRACK = 0xfa,
	SHADOW_GLOBAL_REDZONE = 0xf9,
	SHADOW_STACK_AFTER_SCOPE = 0xf8,
	SHADOW_USER_POISON = 0xf7,
	/* ASan's: __asan_poison_memory_region */ /* the kernel's vmalloc-invalid; no vmalloc here
	                                           */
	SHADOW_STACK_LEFT = 0xf1,
	SHADOW_STACK_MID = 0xf2,
	SHADOW_STACK_RIGHT = 0xf3,
	SHADOW_STACK_PARTIAL = 0xf4,
	SHADOW_STACK_AFTER_RETURN = 0xf5,
	SHADOW_ALLOCA_LEFT = 0xca,
	SHADOW_ALLOCA_RIGHT = 0xcb,
	SHADOW_NULL_PAGE = 0xe0, /* ours: the first page, so inline checks trap NULL */
	/* ASan's: the capacity past a container's size (its annotations) */
	SHADOW_CONTAINER = 0xfd,
	/* ASan's: clang's array cookie, read only through the runtime */
	SHADOW_ARRAY_COOKIE = 0xac,
	/* ASan's: a global of another file whose initialiser has not run */
	SHADOW_INIT_ORDER = 0xf6,
};

static inline int8_t *shadow_of(uintptr_t addr)
{
	return (int8_t *)((addr >> SHADOW_SCALE) + SHADOW_OFFSET);
}

static inline uintptr_t shadow_to_mem(const void *s)
{
	return ((uintptr_t)s - SHADOW_OFFSET) << SHADOW_SCALE;
}

/* True when a fault at addr was a shadow load for an address inside the
 * shadow's own range (its shadow is the protected gap). */
int shadow_in_gap(uintptr_t addr);

/* The shadow of the whole user address space, [0, ARCH_VA_END). */
#define SHADOW_BEG SHADOW_OFFSET
#define SHADOW_END (SHADOW_OFFSET + (ARCH_VA_END >> SHADOW_SCALE))

/* ASan's MidMem (x86-64): [0x3000000000, 0x5000000000) lies in the shadow's
 * gap, but when something is mapped there at start (a library linked with
 * -Ttext-segment, or prelinked, there) it is program memory, and its own
 * shadow, MidShadow, is cut out of the gap too: __ukasan_shadow_mid is then 1. */
#define SHADOW_MID_BEG 0x3000000000ul
#define SHADOW_MID_END 0x5000000000ul
extern int __ukasan_shadow_mid; /* exported: the interceptors in programs read it */

/* True when addr has shadow: user memory outside the shadow itself. Inline:
 * every range check and outline check asks it twice. */
static inline int shadow_covers(uintptr_t a)
{
	return a < ARCH_VA_END &&
	       (a < SHADOW_BEG || a >= SHADOW_END ||
	        (__ukasan_shadow_mid && a - SHADOW_MID_BEG < SHADOW_MID_END - SHADOW_MID_BEG));
}

/* Whether addr's shadow can be read without a fault: always where the
 * shadow is reserved whole; where it is mapped on demand, once it has
 * been. For paths that must not fault (reports from a fault handler);
 * everywhere else, a fault maps the shadow. */
#if ARCH_SHADOW_ON_DEMAND
int shadow_mapped(uintptr_t addr);
#else
static inline int shadow_mapped(uintptr_t addr)
{
	(void)addr;
	return 1;
}
#endif

/* Whether shadow bytes [s, e) are all zero: a word at a time, the last
 * word overlapping, as most ranges are short; long ones (a network buffer)
 * 64 shadow bytes a step. */
static inline int shadow_zero_between(const int8_t *s, const int8_t *e)
{
	if (e - s < 8) {
		for (; s < e; s++)
			if (*s)
				return 0;
		return 1;
	}
	uint64_t w[8];
	for (; e - s >= 64; s += 64) {
		__builtin_memcpy(w, s, 64);
		if (w[0] | w[1] | w[2] | w[3] | w[4] | w[5] | w[6] | w[7])
			return 0;
	}
	for (; e - s > 8; s += 8) {
		__builtin_memcpy(w, s, 8);
		if (w[0])
			return 0;
	}
	if (e == s)
		return 1;
	__builtin_memcpy(w, e - 8, 8);
	return !w[0];
}

/* Whether [addr, addr+size) is all accessible: its last byte is, its first
 * granule wholly is (or holds the whole range), and every granule between
 * is. AddressSanitizer's test. */
static inline int shadow_range_ok(uintptr_t addr, size_t size)
{
	if (!size)
		return 1;
	uintptr_t last = addr + size - 1;
	if (last < addr || !shadow_covers(addr) || !shadow_covers(last))
		return 0;
	const int8_t *sf = shadow_of(addr), *sl = shadow_of(last);
	if (*sl != 0 && (int8_t)(last & (GRANULE - 1)) >= *sl)
		return 0;
	if (sf == sl)
		return 1;
	return *sf == 0 && shadow_zero_between(sf + 1, sl);
}

/* Software tags (arm64): one tag byte per 16-byte granule, at the same
 * offset, for the address with its top byte (the pointer's tag) cleared:
 *   tag_shadow(addr) = ((addr & 2^56-1) >> 4) + SHADOW_OFFSET
 * which is what the compilers' user-space hwaddress instrumentation
 * computes with -hwasan-mapping-offset. Mapped on demand as the generic
 * shadow is; shadow_init_tags() instead of shadow_init(). */
#define TAG_SHADOW_SCALE 4
#define TAG_GRANULE      16ul
#define TAG_SHIFT        56
#define TAG_VA_END       ((uintptr_t)ARCH_VA_END)
#define TAG_SHADOW_END   (SHADOW_OFFSET + (ARCH_VA_END >> TAG_SHADOW_SCALE))
static inline uintptr_t untag(uintptr_t p)
{
	return p & ((1ul << TAG_SHIFT) - 1);
}
static inline uint8_t ptr_tag(uintptr_t p)
{
	return (uint8_t)(p >> TAG_SHIFT);
}
static inline uintptr_t with_ptr_tag(uintptr_t p, uint8_t tag)
{
	return untag(p) | (uintptr_t)tag << TAG_SHIFT;
}
static inline uint8_t *tag_shadow_of(uintptr_t p)
{
	return (uint8_t *)((untag(p) >> TAG_SHADOW_SCALE) + SHADOW_OFFSET);
}
int shadow_init_tags(void);
/* Whether addr's tag can be read without a fault (paths that must not). */
int tag_shadow_mapped(uintptr_t addr);
/* addr granule-aligned; size rounded up to whole granules. */
void tag_shadow_set(uintptr_t addr, size_t size, uint8_t tag);
/* Back to tag 00, whole shadow pages to the OS. */
void tag_shadow_release(uintptr_t addr, size_t size);
/* The same for memory the program unmapped: never-mapped shadow untouched. */
void tag_shadow_forget(uintptr_t addr, size_t size);

/* Reserve the shadow; returns -1 (after saying why) when the address range
 * is taken. */
int shadow_init(void);
int shadow_ready(void);

/* addr must be granule-aligned. */
void shadow_poison(uintptr_t addr, size_t size, uint8_t code);
/* Shadow bytes [s, e) (shadow addresses) to code; zeroing writes only the
 * pages that are not zero already, and never faults one in. */
void shadow_set(uintptr_t s, uintptr_t e, uint8_t code);
/* Make [addr, addr+size) accessible; a partial last granule gets its count. */
void shadow_unpoison(uintptr_t addr, size_t size);
/* The same, writing every byte: for shadow that is resident anyway. */
void shadow_unpoison_resident(uintptr_t addr, size_t size);
/* Forget memory given back to the OS: shadow reads 00 again, and whole
 * shadow pages return to the OS (as KASAN_VMALLOC releases a freed area's shadow lazily). */
void shadow_release(uintptr_t addr, size_t size);

/* The same for memory the program itself unmapped or discarded: only
 * shadow that is not already 00 is written. */
void shadow_forget(uintptr_t addr, size_t size);

/* For kasan.stats: shadow pages given back so far, and resident now. */
size_t shadow_pages_released(void);
size_t shadow_resident_bytes(void);

#endif
