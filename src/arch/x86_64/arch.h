/* x86-64. Also included by the assembly (callbacks.S): C only under
 * !__ASSEMBLER__. */
#ifndef UKASAN_ARCH_X86_64_ARCH_H
#define UKASAN_ARCH_X86_64_ARCH_H

/* AddressSanitizer's x86-64 offset: the whole 47-bit user address space
 * maps to [0x7fff8000, 0x10007fff8000) with a protected gap in the middle
 * (the shadow of the shadow). ukasan-cc passes the same number to the
 * compilers. */
#define ARCH_SHADOW_OFFSET    0x7fff8000
#define ARCH_VA_END           0x800000000000ul
#define ARCH_SHADOW_ON_DEMAND 0

#ifndef __ASSEMBLER__
#include <stddef.h>
#include <stdint.h>
#include <ucontext.h>

/* A system call, as the kernel's ABI has it: -errno on failure. */
static inline long arch_syscall6(long nr, long a, long b, long c, long d, long e, long f)
{
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	long ret;
	__asm__ volatile("syscall"
	                 : "=a"(ret)
	                 : "a"(nr), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
	                 : "rcx", "r11", "memory");
	return ret;
}

/* The DWARF unwinder follows the frame pointer and the stack pointer: their
 * numbers in the psABI, and the expression opcodes that name them. */
#define ARCH_HAS_UNWINDER 1
#define DW_REG_FP         6    /* rbp */
#define DW_REG_SP         7    /* rsp */
#define DW_OP_BREG_FP     0x76 /* DW_OP_breg6: rbp + offset */
#define DW_OP_BREG_SP     0x77 /* DW_OP_breg7: rsp + offset */
/* A frame built with a frame pointer keeps its record (the caller's rbp,
 * then the return address) just below the caller's stack pointer: the
 * record is found, and the frame stepped, with no CFI. Not in the one
 * assembly function of ours that calls C (callbacks.S), whose record sits
 * below the arguments it was given on the stack (weak: not in ukasan-leaks,
 * which has no such function). */
#define ARCH_FRAME_RECORD_AT_CFA 1
extern char ukasan_access_failed[] __attribute__((weak)),
    ukasan_access_failed_end[] __attribute__((weak));
#define ARCH_FRAME_RECORD_ODD(pc)                                                                  \
	((pc) >= (uintptr_t)ukasan_access_failed && (pc) < (uintptr_t)ukasan_access_failed_end)

/* Our own pc, sp and fp at one instruction, described exactly by our own
 * CFI there, whatever the compiler made of the frame around it. */
#define ARCH_READ_REGS(pc, sp, fp)                                                                 \
	__asm__ volatile("lea 0(%%rip), %0\n\t"                                                    \
	                 "mov %%rsp, %1\n\t"                                                       \
	                 "mov %%rbp, %2"                                                           \
	                 : "=r"(pc), "=r"(sp), "=r"(fp))

/* The callee-saved registers rbx, rbp, r12-r15 as they are where this is
 * inlined: in an entry point the program called, the values the program's
 * frames keep there (kmemleak's roots for the thread that asks for a
 * check; the other threads' come from their signal frames). */
#define ARCH_CALLEE_SAVED 6
__attribute__((always_inline)) static inline void arch_callee_saved(uintptr_t *regs)
{
	__asm__ volatile("mov %%rbx, 0(%0)\n\tmov %%rbp, 8(%0)\n\tmov %%r12, 16(%0)\n\t"
	                 "mov %%r13, 24(%0)\n\tmov %%r14, 32(%0)\n\tmov %%r15, 40(%0)"
	                 :
	                 : "r"(regs)
	                 : "memory");
}

/* glibc's REG_RSP, REG_RIP and REG_ERR, which it names only under
 * _GNU_SOURCE. */
enum { ARCH_GREG_RBP = 10, ARCH_GREG_RSP = 15, ARCH_GREG_RIP = 16, ARCH_GREG_ERR = 19 };

static inline unsigned long arch_fault_pc(const void *uctx)
{
	return (unsigned long)((const ucontext_t *)uctx)->uc_mcontext.gregs[ARCH_GREG_RIP];
}

static inline unsigned long arch_fault_sp(const void *uctx)
{
	return (unsigned long)((const ucontext_t *)uctx)->uc_mcontext.gregs[ARCH_GREG_RSP];
}

/* glibc's signal return trampoline (__restore_rt) has CFI that describes
 * the signal frame: no other way through it is needed. */
#define ARCH_SIGFRAME_CONTEXT 0
#define ARCH_CONTEXT_OFFSETS                                                                       \
	{                                                                                          \
		offsetof(ucontext_t, uc_mcontext.gregs[ARCH_GREG_RIP]),                            \
		    offsetof(ucontext_t, uc_mcontext.gregs[ARCH_GREG_RSP]),                        \
		    offsetof(ucontext_t, uc_mcontext.gregs[ARCH_GREG_RBP]), 0                      \
	}
static inline int arch_is_sigreturn(uintptr_t pc)
{
	(void)pc;
	return 0;
}

/* The registers an unwinder starts from at a signal: pc, sp, the frame
 * pointer, and the link register where the architecture has one (0). */
static inline void arch_context_regs(const void *uctx, uintptr_t regs[4])
{
	const greg_t *g = ((const ucontext_t *)uctx)->uc_mcontext.gregs;
	regs[0] = (uintptr_t)g[ARCH_GREG_RIP];
	regs[1] = (uintptr_t)g[ARCH_GREG_RSP];
	regs[2] = (uintptr_t)g[ARCH_GREG_RBP];
	regs[3] = 0;
}

static inline void arch_set_pc_sp(void *uctx, unsigned long pc, unsigned long sp)
{
	((ucontext_t *)uctx)->uc_mcontext.gregs[ARCH_GREG_RIP] = (greg_t)pc;
	((ucontext_t *)uctx)->uc_mcontext.gregs[ARCH_GREG_RSP] = (greg_t)sp;
}

/* A call pushes its return address: at a bad pc reached by a call, it is
 * the word at sp, and the caller's sp is just above it. */
#define ARCH_RETURN_ADDRESS_ON_STACK 1

/* The CPU says when a page fault was an instruction fetch. */
static inline int arch_fault_code_is_fetch(unsigned long code)
{
	return (code & 16) != 0;
}

/* The page fault's error code: bit 1 is set for a write. */
static inline int arch_fault_code_is_write(unsigned long code)
{
	return (code & 2) != 0;
}

/* The whole code, as the kernel's oops prints it: 1 protection violation
 * (else not present), 2 write, 4 user mode, 16 instruction fetch. */
static inline unsigned long arch_fault_error_code(const void *uctx)
{
	return (unsigned long)((const ucontext_t *)uctx)->uc_mcontext.gregs[ARCH_GREG_ERR];
}

/* The kernel's oops words for a page fault (arch/x86/mm/fault.c). */
#define ARCH_OOPS_PC "RIP: 0033:" /* user code segment */
static inline const char *arch_fault_access(unsigned long code)
{
	return (code & 16) ? "instruction fetch" : (code & 2) ? "write access" : "read access";
}

static inline const char *arch_fault_cause(unsigned long code)
{
	return (code & 1) ? "permissions violation" : "not-present page";
}

/* Return to the interrupted context as rt_sigreturn would, but with only
 * rt_sigprocmask: for sandboxes whose filter forbids rt_sigreturn. */
#define ARCH_HAS_RESUME 1
void ukasan_resume_gregs(const void *gregs) __attribute__((noreturn));
static inline void __attribute__((noreturn)) arch_resume(void *uctx)
{
	ucontext_t *uc = uctx;
	/* The kernel's signal frame holds the XSAVE image, 64-byte aligned,
	 * marked by FP_XSTATE_MAGIC1 in its software-reserved bytes (offset
	 * 464), with the features it saved beside it. */
	const unsigned char *fp = (const unsigned char *)uc->uc_mcontext.fpregs;
	if (fp) {
		uint32_t magic = *(const uint32_t *)(fp + 464);
		uint64_t features = *(const uint64_t *)(fp + 472);
		if (magic == 0x46505853u)
			__asm__ volatile("xrstor64 (%0)" ::"r"(fp), "a"((uint32_t)features),
			                 "d"((uint32_t)(features >> 32))
			                 : "memory");
		else
			__asm__ volatile("fxrstor64 (%0)" ::"r"(fp) : "memory");
	}
	register long size __asm__("r10") = 8; /* the kernel's sigset: 64 signals */
	__asm__ volatile("syscall" ::"a"(14 /* rt_sigprocmask */), "D"(2 /* SIG_SETMASK */),
	                 "S"(&uc->uc_sigmask), "d"(0), "r"(size)
	                 : "rcx", "r11", "memory");
	ukasan_resume_gregs(uc->uc_mcontext.gregs);
}
#endif

#endif
