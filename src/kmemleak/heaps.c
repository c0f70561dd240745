/* kmemleak's heaps and the program's calls about what the scan
 * (scan.c) reads: the heaps the composition root hands over, whether a
 * check can be made, the objects and threads the program says are no
 * leaks, the regions it registers as roots; and where the runtime's own
 * writable image is, never a root. */
#include <elf.h>
#include <link.h>

#include "../base/compiler.h"
#include "../base/leak_heap.h"
#include "../config/options.h"
#include "../platform/os.h"
#include "../report/report.h"
#include "kmemleak.h"
#include "scan.h"

const struct leak_heap *kmemleak_heaps[KMEMLEAK_MAX_HEAPS];
int kmemleak_nheaps;
struct kmemleak_root kmemleak_roots[KMEMLEAK_MAX_ROOTS];
int kmemleak_nroots;

void kmemleak_add_heap(const struct leak_heap *h)
{
	if (h && kmemleak_nheaps < KMEMLEAK_MAX_HEAPS)
		kmemleak_heaps[kmemleak_nheaps++] = h;
}

int kmemleak_active(void)
{
	if (!opt.kmemleak)
		return 0;
	for (int h = 0; h < kmemleak_nheaps; h++)
		if (kmemleak_heaps[h]->find)
			return 1;
	return 0;
}

void kmemleak_disable(void)
{
	for (int h = 0; h < kmemleak_nheaps; h++)
		if (kmemleak_heaps[h]->thread_ignore)
			kmemleak_heaps[h]->thread_ignore(1);
}

void kmemleak_enable(void)
{
	for (int h = 0; h < kmemleak_nheaps; h++)
		if (kmemleak_heaps[h]->thread_ignore)
			kmemleak_heaps[h]->thread_ignore(0);
}

void kmemleak_ignore(const void *p)
{
	if (!kmemleak_active())
		return;
	for (int h = 0; h < kmemleak_nheaps; h++)
		if (kmemleak_heaps[h]->ignore && kmemleak_heaps[h]->ignore((uintptr_t)p))
			return;
}

void kmemleak_root_region(const void *p, size_t size, int add)
{
	report_hold();
	if (add && kmemleak_nroots < KMEMLEAK_MAX_ROOTS) {
		kmemleak_roots[kmemleak_nroots].p = (uintptr_t)p;
		kmemleak_roots[kmemleak_nroots++].size = size;
	} else if (!add)
		for (int i = 0; i < kmemleak_nroots; i++)
			if (kmemleak_roots[i].p == (uintptr_t)p && kmemleak_roots[i].size == size) {
				kmemleak_roots[i] = kmemleak_roots[--kmemleak_nroots];
				break;
			}
	report_release();
}

/* The runtime's own writable image (its .data and .bss) is never a root,
 * however a range reaches it: kmemleak's own state there (each heap's
 * bounds, which start at its lowest object) would keep objects alive. The
 * kernel shares the mapping of that .bss with an adjacent anonymous one,
 * and the dynamic linker's static TLS block of the main thread, scanned
 * whole, is sometimes mapped right after it. */
/* The writable PT_LOAD segments of the image whose ELF header is at ehdr
 * (ours, or, scanned from outside, the target's libukasan.so: read through
 * rd, and checked as any input from another process). */
void kmemleak_own_data(uintptr_t ehdr, int (*rd)(void *, uintptr_t, size_t), uintptr_t *own_lo,
                       uintptr_t *own_hi)
{
	ElfW(Ehdr) eh;
	ElfW(Phdr) ph[32];
	*own_lo = *own_hi = 0;
	if (rd(&eh, ehdr, sizeof(eh)) != 0 || eh.e_phentsize != sizeof(ph[0]) || eh.e_phnum > 32 ||
	    eh.e_phoff > (1u << 20) || rd(ph, ehdr + eh.e_phoff, eh.e_phnum * sizeof(ph[0])) != 0)
		return;
	uintptr_t base = 0, page = os_page_size();
	for (int i = 0; i < eh.e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && ph[i].p_offset == 0)
			base = ehdr - ph[i].p_vaddr;
	for (int i = 0; i < eh.e_phnum; i++)
		if (ph[i].p_type == PT_LOAD && (ph[i].p_flags & PF_W) &&
		    ph[i].p_memsz < (1ul << 40) && ph[i].p_vaddr < (1ul << 46)) {
			uintptr_t lo = ALIGN_DOWN(base + ph[i].p_vaddr, page);
			uintptr_t hi = ALIGN_UP(base + ph[i].p_vaddr + ph[i].p_memsz, page);
			if (!*own_hi || lo < *own_lo)
				*own_lo = lo;
			if (hi > *own_hi)
				*own_hi = hi;
		}
}
