#define _GNU_SOURCE
/* What a fault's machine context says: the pc, the kind of access, and
 * the decoded record a fatal fault's report starts from. Apart from
 * signals.c, which decides whose a signal is, because none of this depends
 * on who handles it. */
#include "signals.h"

#include <stdint.h>
#include <string.h>

#include "../base/compiler.h"
#include "../arch/arch.h"
#include "os.h"
#include "sys.h"

unsigned long fault_pc(const void *uctx)
{
	return arch_fault_pc(uctx);
}

unsigned long fault_error_code(const void *uctx)
{
	unsigned long code = arch_fault_error_code(uctx);
#ifdef ARCH_FAULT_FROM_INSN
	uint32_t insn;
	if (!code && os_copy_readable(&insn, (const void *)arch_fault_pc(uctx), sizeof(insn)) ==
	                 sizeof(insn))
		code = arch_fault_code_from_insn(insn);
#endif
	return code;
}

int fault_is_write(const void *uctx)
{
	return arch_fault_code_is_write(fault_error_code(uctx));
}

static int readable(uintptr_t at, int sandboxed)
{
	uint32_t insn;
	return !sandboxed &&
	       os_copy_readable(&insn, (const void *)at, sizeof(insn)) == sizeof(insn);
}

/* Nothing here may fault: pc may be anywhere, so it is read only through
 * the kernel (which a sandbox may refuse: then not at all). */
void fault_decode(int sig, siginfo_t *info, void *uctx, struct fatal_fault *f)
{
	rt_memset(f, 0, sizeof(*f));
	int sandboxed = os_sandboxed();
	f->sig = sig;
	f->si_code = info->si_code;
	f->addr = (uintptr_t)info->si_addr;
	f->pc = arch_fault_pc(uctx);
	f->sp = arch_fault_sp(uctx);
	f->error_code = arch_fault_error_code(uctx);
	int pc_readable = readable(f->pc, sandboxed);
	f->bad_pc = (f->error_code && arch_fault_code_is_fetch(f->error_code)) ||
	            (sig == SIGSEGV && f->si_code != SI_KERNEL && f->addr == f->pc) ||
	            (!sandboxed && !pc_readable);
#ifdef ARCH_FAULT_FROM_INSN
	if (!f->error_code && f->bad_pc)
		f->error_code = arch_fault_code_fetch(pc_readable);
	else if (!f->error_code && pc_readable)
		f->error_code = arch_fault_code_from_insn(*(const uint32_t *)f->pc);
#endif
	if (f->bad_pc) {
		uintptr_t ra = 0;
#ifdef ARCH_RETURN_ADDRESS_ON_STACK
		if (sandboxed ||
		    os_copy_readable(&ra, (const void *)f->sp, sizeof(ra)) != sizeof(ra))
			ra = 0;
#else
		ra = arch_fault_lr(uctx);
#endif
		/* The unwinder reads the code at the caller: it must be there. */
		if (ra && readable(ra, sandboxed))
			f->caller = ra;
		return;
	}
	if (sig == SIGSEGV && (f->si_code == SEGV_MAPERR || f->si_code == SEGV_ACCERR))
		f->stack_overflow = os_stack_guard_hit(f->addr, f->sp, &f->stack_lo, &f->stack_hi);
}

int fault_context_to_caller(void *uctx, const struct fatal_fault *f, struct fault_saved *saved)
{
	if (!f->bad_pc || !f->caller)
		return -1;
	saved->pc = arch_fault_pc(uctx);
	saved->sp = arch_fault_sp(uctx);
#ifdef ARCH_RETURN_ADDRESS_ON_STACK
	arch_set_pc_sp(uctx, f->caller, saved->sp + sizeof(uintptr_t));
#else
	arch_set_pc_sp(uctx, f->caller, saved->sp);
#endif
	return 0;
}

void fault_context_restore(void *uctx, const struct fault_saved *saved)
{
	arch_set_pc_sp(uctx, saved->pc, saved->sp);
}
