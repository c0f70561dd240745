#include "shadow.h"

#include <string.h>

#include "../base/common.h"
#include "../config/log.h"
#include "../platform/os.h"

/* The x86-64 user address space, split as AddressSanitizer splits it. */
#define LOW_SHADOW_BEG  SHADOW_OFFSET
#define LOW_SHADOW_END  0x8fff6ffful
#define GAP_BEG         0x8fff7000ul
#define GAP_END         0x2008fff6ffful
#define HIGH_SHADOW_BEG 0x2008fff7000ul

static int ready;
static size_t pages_released;

int shadow_ready(void)
{
	return ready;
}

int shadow_in_gap(uintptr_t a)
{
	return ready && a >= GAP_BEG && a <= GAP_END;
}

static int reserve(uintptr_t beg, uintptr_t end, enum os_prot prot)
{
	if (os_reserve_at(beg, end - beg + 1, prot))
		return 0;
	log_printf("ukasan: cannot reserve shadow memory at [0x%lx, 0x%lx]: the range is already "
	           "in use (is the program built as a position-independent executable?)\n",
	           (unsigned long)beg, (unsigned long)end);
	return -1;
}

int shadow_init(void)
{
	if (ready)
		return 0;
	/* Reads of never-written shadow cost nothing: MAP_NORESERVE anonymous
	 * pages come from the shared zero page until written. */
	if (reserve(LOW_SHADOW_BEG, LOW_SHADOW_END, OS_PROT_RW) ||
	    reserve(HIGH_SHADOW_BEG, HIGH_SHADOW_END, OS_PROT_RW) ||
	    reserve(GAP_BEG, GAP_END, OS_PROT_NONE))
		return -1;
	/* The first page: so an inline check on a NULL-based pointer reports a
	 * null-ptr-deref instead of passing and crashing on the access. */
	rt_memset(shadow_of(0), SHADOW_NULL_PAGE, os_page_size() >> SHADOW_SCALE);
	ready = 1;
	return 0;
}

void shadow_poison(uintptr_t addr, size_t size, uint8_t code)
{
	if (!ready || !size)
		return;
	rt_memset(shadow_of(addr), code, ALIGN_UP(size, GRANULE) >> SHADOW_SCALE);
}

/* Zero shadow bytes [s, e). Whole pages inside, when there are at least
 * min_pages of them, go back to the OS instead: they read as the shared
 * zero page, which costs no memory, no page clearing, and keeps every later
 * shadow load of them in one cached page (AddressSanitizer does the same
 * above 64 KiB of shadow). */
static void zero(uintptr_t s, uintptr_t e, int check)
{
	/* Shadow never written reads as the shared zero page: writing zeros
	 * there would make it resident for nothing. */
	if (check) {
		uintptr_t a = s;
		for (; a < e && (a & 7); a++)
			if (*(const uint8_t *)a)
				break;
		for (; a + 8 <= e && !*(const uint64_t *)a; a += 8)
			;
		for (; a < e && !*(const uint8_t *)a; a++)
			;
		if (a == e)
			return;
	}
	rt_memset((void *)s, 0, e - s);
}

static void shadow_zero(uintptr_t s, uintptr_t e, size_t min_pages, int check)
{
	size_t page = os_page_size();
	uintptr_t ps = ALIGN_UP(s, page), pe = ALIGN_DOWN(e, page);
	if (ps >= pe || pe - ps < min_pages * page) {
		zero(s, e, check);
		return;
	}
	zero(s, ps, check);
	os_discard((void *)ps, pe - ps);
	__atomic_add_fetch(&pages_released, (pe - ps) / page, __ATOMIC_RELAXED);
	zero(pe, e, check);
}

static void unpoison(uintptr_t addr, size_t size, size_t min_pages)
{
	if (!ready || !size)
		return;
	uintptr_t s = (uintptr_t)shadow_of(addr);
	shadow_zero(s, s + (size >> SHADOW_SCALE), min_pages, 0);
	if (size & (GRANULE - 1))
		*shadow_of(addr + size) = (int8_t)(size & (GRANULE - 1));
}

void shadow_unpoison(uintptr_t addr, size_t size)
{
	/* Not one page: a system call per allocation of 32 KiB or so would
	 * cost more than the memset. */
	unpoison(addr, size, 2);
}

void shadow_unpoison_resident(uintptr_t addr, size_t size)
{
	unpoison(addr, size, SIZE_MAX);
}

void shadow_release(uintptr_t addr, size_t size)
{
	if (!ready || !size)
		return;
	shadow_zero((uintptr_t)shadow_of(addr), (uintptr_t)shadow_of(addr + size), 1, 0);
}

size_t shadow_pages_released(void)
{
	return pages_released;
}

size_t shadow_resident_bytes(void)
{
	return os_resident_bytes(LOW_SHADOW_BEG, LOW_SHADOW_END + 1) +
	       os_resident_bytes(HIGH_SHADOW_BEG, HIGH_SHADOW_END + 1);
}

void shadow_forget(uintptr_t addr, size_t size)
{
	if (!ready || !size || !shadow_covers(addr) || !shadow_covers(addr + size - 1))
		return;
	shadow_zero((uintptr_t)shadow_of(addr), (uintptr_t)shadow_of(addr + size), 1, 1);
}
