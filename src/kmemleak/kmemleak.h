/* kmemleak for generic mode's heap (kmemleak.c scans, kmemleak_report.c
 * reports): the composition root's entry points. */
#ifndef UKASAN_KASAN_KMEMLEAK_H
#define UKASAN_KASAN_KMEMLEAK_H

#include <stddef.h>
#include <stdint.h>

/* Where the check was called from: the caller's stack pointer and its
 * callee-saved registers, read first thing in the exported entry points so
 * that the scan sees the program's values, not the check's own frames. */
#define KMEMLEAK_REGS 12
struct kmemleak_caller {
	uintptr_t sp;
	uintptr_t regs[KMEMLEAK_REGS];
};
__attribute__((always_inline)) static inline void kmemleak_caller_here(struct kmemleak_caller *c)
{
#if defined(__x86_64__)
	__asm__ volatile("mov %%rbx, 0(%0)\n\tmov %%rbp, 8(%0)\n\tmov %%r12, 16(%0)\n\t"
	                 "mov %%r13, 24(%0)\n\tmov %%r14, 32(%0)\n\tmov %%r15, 40(%0)"
	                 :
	                 : "r"(c->regs)
	                 : "memory");
#elif defined(__aarch64__)
	__asm__ volatile("stp x19, x20, [%0]\n\tstp x21, x22, [%0, #16]\n\t"
	                 "stp x23, x24, [%0, #32]\n\tstp x25, x26, [%0, #48]\n\t"
	                 "stp x27, x28, [%0, #64]\n\tstr x29, [%0, #80]"
	                 :
	                 : "r"(c->regs)
	                 : "memory");
#endif
	c->sp = (uintptr_t)__builtin_dwarf_cfa();
}

/* Whether leak checks can run: kmemleak=on in generic mode. */
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
