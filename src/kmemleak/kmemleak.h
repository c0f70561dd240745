/* kmemleak (scan.c scans, report.c reports): the composition root's entry
 * points. It reads heaps only through base/leak_heap.h; the composition
 * root hands it the heaps in force. */
#ifndef UKASAN_KMEMLEAK_KMEMLEAK_H
#define UKASAN_KMEMLEAK_KMEMLEAK_H

#include <stddef.h>
#include <stdint.h>

#include "../arch/arch.h"

struct leak_heap;

/* Where the check was called from: the caller's stack pointer and its
 * callee-saved registers, read first thing in the exported entry points so
 * that the scan sees the program's values, not the check's own frames. */
struct kmemleak_caller {
	uintptr_t sp;
	uintptr_t regs[ARCH_CALLEE_SAVED];
};
__attribute__((always_inline)) static inline void kmemleak_caller_here(struct kmemleak_caller *c)
{
	arch_callee_saved(c->regs);
	c->sp = (uintptr_t)__builtin_dwarf_cfa();
}

/* A heap to scan, at initialisation (NULL: none); at most four. */
void kmemleak_add_heap(const struct leak_heap *h);
/* At initialisation: the heaps handed over track only some of the
 * program's objects (KFENCE's sampled ones, under the preload at its
 * defaults); the rest of its memory is roots (scan.c). */
void kmemleak_roots_untracked(void);
/* Whether leak checks can run: kmemleak=on and a heap whose objects can
 * leak (a KASAN mode's, or the preload's registry). */
int kmemleak_active(void);
/* Scan and report objects nothing points to (each once): the number of
 * unreferenced objects found, reported now or before; -1 when the scan
 * could not be made. */
long kmemleak_check(const struct kmemleak_caller *self);
/* Allocations of this thread are not leaks while disabled (nested). */
void kmemleak_disable(void);
void kmemleak_enable(void);
void kmemleak_ignore(const void *p);
void kmemleak_root_region(const void *p, size_t size, int add);

#endif
