/* arm64: fault decoding only so far; the shadow layout and the unwinder's
 * registers come with the arm64 port. */
#ifndef UKASAN_ARCH_AARCH64_H
#define UKASAN_ARCH_AARCH64_H

#ifndef __ASSEMBLER__
#include <stdint.h>
#include <ucontext.h>

#define ARCH_HAS_UNWINDER 0

static inline unsigned long arch_fault_pc(const void *uctx)
{
	return (unsigned long)((const ucontext_t *)uctx)->uc_mcontext.pc;
}

/* The ESR record in the signal frame: WnR is bit 6 of a data abort. */
static inline unsigned long arch_fault_error_code(const void *uctx)
{
	const ucontext_t *uc = uctx;
	const struct _aarch64_ctx *h = (const void *)uc->uc_mcontext.__reserved;
	while (h->magic) {
		if (h->magic == 0x45535201 /* ESR_MAGIC */) {
			const struct {
				struct _aarch64_ctx head;
				unsigned long esr;
			} *esr = (const void *)h;
			return esr->esr;
		}
		h = (const void *)((const char *)h + h->size);
	}
	return 0;
}

#define ARCH_OOPS_PC "pc : "
static inline const char *arch_fault_access(unsigned long esr)
{
	return ((esr >> 6) & 1) ? "write access" : "read access";
}

static inline const char *arch_fault_cause(unsigned long esr)
{
	return (esr & 0x3c) == 0x0c ? "permissions violation" : "not-present page";
}

static inline int arch_fault_is_write(const void *uctx)
{
	return (arch_fault_error_code(uctx) >> 6) & 1;
}
#endif

#endif
