/* arm64 (AArch64), 48-bit user addresses. */
#ifndef UKASAN_ARCH_AARCH64_ARCH_H
#define UKASAN_ARCH_AARCH64_ARCH_H

/* The shadow of [0, 2^48) lies at [2^44, 3 * 2^44): above where qemu-user
 * puts everything (0x55_0000_0000 and just above) and below where Linux
 * puts a PIE (2/3 of the address space) and the mmap area (near the top),
 * and below 2^47, the most qemu-user hands out. It is not reserved but
 * mapped on demand (shadow.c): under qemu, reserving it would cost seconds
 * a start (qemu tracks every page of a mapping). Kernels with 39-bit user
 * addresses cannot map it; shadow_init says so. ukasan-cc passes the same
 * number to the compilers. */
#define ARCH_SHADOW_OFFSET    0x100000000000
#define ARCH_VA_END           0x1000000000000ul
#define ARCH_SHADOW_ON_DEMAND 1

#ifndef __ASSEMBLER__
#include <stddef.h>
#include <stdint.h>
#include <ucontext.h>

/* A system call, as the kernel's ABI has it: -errno on failure. */
static inline long arch_syscall6(long nr, long a, long b, long c, long d, long e, long f)
{
	register long x8 __asm__("x8") = nr;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;
	register long x4 __asm__("x4") = e;
	register long x5 __asm__("x5") = f;
	__asm__ volatile("svc 0"
	                 : "+r"(x0)
	                 : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5)
	                 : "memory");
	return x0;
}

/* DWARF numbers: x29 (the frame pointer), sp, and the expression opcodes
 * DW_OP_breg29 / DW_OP_breg31 that name them. The return address column
 * is x30's, read from each CIE. */
#define ARCH_HAS_UNWINDER 1
#define DW_REG_FP         29
#define DW_REG_SP         31
#define DW_OP_BREG_FP     0x8d
#define DW_OP_BREG_SP     0x8f
/* A frame record (x29, x30) sits where the prologue put it, usually at the
 * bottom of the frame: the caller's stack pointer is not found from it. */
#define ARCH_FRAME_RECORD_AT_CFA  0
#define ARCH_FRAME_RECORD_ODD(pc) 1

#define ARCH_READ_REGS(pc, sp, fp)                                                                 \
	__asm__ volatile("adr %0, .\n\t"                                                           \
	                 "mov %1, sp\n\t"                                                          \
	                 "mov %2, x29"                                                             \
	                 : "=r"(pc), "=r"(sp), "=r"(fp))

/* The callee-saved registers x19-x29 as they are where this is inlined: in
 * an entry point the program called, the values the program's frames keep
 * there (kmemleak's roots for the thread that asks for a check; the other
 * threads' come from their signal frames). */
#define ARCH_CALLEE_SAVED 11
__attribute__((always_inline)) static inline void arch_callee_saved(uintptr_t *regs)
{
	__asm__ volatile("stp x19, x20, [%0]\n\tstp x21, x22, [%0, #16]\n\t"
	                 "stp x23, x24, [%0, #32]\n\tstp x25, x26, [%0, #48]\n\t"
	                 "stp x27, x28, [%0, #64]\n\tstr x29, [%0, #80]"
	                 :
	                 : "r"(regs)
	                 : "memory");
}

/* The kernel's header names these only in <asm/sigcontext.h>. */
struct arch_ctx_head {
	uint32_t magic, size;
};
#define ARCH_ESR_MAGIC 0x45535201u

static inline unsigned long arch_fault_pc(const void *uctx)
{
	return (unsigned long)((const ucontext_t *)uctx)->uc_mcontext.pc;
}

static inline unsigned long arch_fault_sp(const void *uctx)
{
	return (unsigned long)((const ucontext_t *)uctx)->uc_mcontext.sp;
}

/* The signal return trampoline, the kernel's (in the vDSO, with no CFI
 * that covers it) and qemu-user's alike: mov x8, #__NR_rt_sigreturn;
 * svc #0. A handler returns to it with sp at the rt_sigframe: a siginfo_t,
 * then the interrupted context. */
#define ARCH_SIGFRAME_CONTEXT 128
/* Where pc, sp, the frame pointer and the link register are in a context. */
#define ARCH_CONTEXT_OFFSETS                                                                       \
	{                                                                                          \
		offsetof(ucontext_t, uc_mcontext.pc), offsetof(ucontext_t, uc_mcontext.sp),        \
		    offsetof(ucontext_t, uc_mcontext.regs[29]),                                    \
		    offsetof(ucontext_t, uc_mcontext.regs[30])                                     \
	}
static inline int arch_is_sigreturn(uintptr_t pc)
{
	const uint32_t *insn = (const uint32_t *)pc;
	return !(pc & 3) && insn[0] == 0xd2801168u && insn[1] == 0xd4000001u;
}

/* The registers an unwinder starts from at a signal: pc, sp, the frame
 * pointer (x29) and the link register (x30), where a leaf function, or
 * one before its prologue, keeps its return address. */
static inline void arch_context_regs(const void *uctx, uintptr_t regs[4])
{
	const ucontext_t *u = uctx;
	regs[0] = (uintptr_t)u->uc_mcontext.pc;
	regs[1] = (uintptr_t)u->uc_mcontext.sp;
	regs[2] = (uintptr_t)u->uc_mcontext.regs[29];
	regs[3] = (uintptr_t)u->uc_mcontext.regs[30];
}

static inline void arch_set_pc_sp(void *uctx, unsigned long pc, unsigned long sp)
{
	((ucontext_t *)uctx)->uc_mcontext.pc = pc;
	((ucontext_t *)uctx)->uc_mcontext.sp = sp;
}

/* A call (BL, BLR) leaves its return address in the link register: at a
 * bad pc reached by a call, the caller is there, and sp is the caller's. */
static inline unsigned long arch_fault_lr(const void *uctx)
{
	return (unsigned long)((const ucontext_t *)uctx)->uc_mcontext.regs[30];
}

/* The ESR record Linux puts in the signal frame for a data abort; 0 when
 * there is none (qemu-user gives none: signals.c then asks
 * arch_fault_code_from_insn). */
static inline unsigned long arch_fault_error_code(const void *uctx)
{
	const ucontext_t *uc = uctx;
	const uint8_t *p = (const uint8_t *)uc->uc_mcontext.__reserved;
	const uint8_t *end = p + sizeof(uc->uc_mcontext.__reserved);
	while (p + sizeof(struct arch_ctx_head) <= end) {
		const struct arch_ctx_head *h = (const void *)p;
		if (!h->magic || h->size < sizeof(*h) || h->size > (size_t)(end - p))
			break;
		if (h->magic == ARCH_ESR_MAGIC && h->size >= 16)
			return *(const uint64_t *)(p + 8);
		p += h->size;
	}
	return 0;
}

/* Without an ESR, the instruction at pc says: in the loads and stores
 * (op0 x1x0), bit 22 is L for every single, pair, exclusive and SIMD form;
 * the atomics (LDADD and the others, SWP, CAS) both read and write, and
 * count as writes, as a data abort's WnR would. */
static inline int arch_insn_is_write(uint32_t insn)
{
	if ((insn & 0x0a000000) != 0x08000000)
		return 0;
	if ((insn & 0x3b200c00) == 0x38200000) /* LSE atomic memory operations */
		return 1;
	if ((insn & 0x3f800000) == 0x08800000 && (insn & 0x00200000)) /* CAS, CASP */
		return 1;
	/* Single general registers: opc (bits 23:22) 00 stores; 01 loads, and
	 * 10 and 11 are the sign-extending loads (LDRSB/LDRSH/LDRSW). */
	if ((insn & 0x3b000000) == 0x39000000 || (insn & 0x3b000000) == 0x38000000)
		if (!((insn >> 26) & 1))
			return ((insn >> 22) & 3) == 0;
	return !((insn >> 22) & 1);
}

/* The bytes a load or store instruction accesses, for tag check faults,
 * which say only where: single registers (LDR/STR in all their addressing
 * forms, the LSE atomics), pairs, exclusives and acquire/release forms,
 * and SIMD structure loads and stores (their first register); 1 for
 * anything else. */
static inline size_t arch_insn_access_size(uint32_t insn)
{
	unsigned sz = insn >> 30, v = (insn >> 26) & 1;
	if ((insn & 0x3b000000) == 0x39000000 || (insn & 0x3b200000) == 0x38000000 ||
	    (insn & 0x3b200c00) == 0x38200800 || (insn & 0x3b200c00) == 0x38200000)
		return v && sz == 0 && ((insn >> 23) & 1) ? 16 : 1ul << sz;
	if ((insn & 0x3a000000) == 0x28000000) /* LDP/STP and LDNP/STNP */
		return v ? 8ul << sz : (sz & 2) ? 16 : 8;
	if ((insn & 0x3f000000) == 0x08000000) /* exclusives, acquire/release, CAS */
		return ((insn >> 21) & 1) && !((insn >> 23) & 1) ? 2ul << sz : 1ul << sz;
	if ((insn & 0xbf000000) == 0x0c000000) /* SIMD LD1/ST1... (first register) */
		return (insn >> 30) & 1 ? 16 : 8;
	return 1;
}

/* ESR_ELx of a data abort from user mode (EC 0x24) at a translation fault
 * (DFSC 0x07), with WnR (bit 6) from the instruction: what the kernel's
 * oops would print, for frames without an ESR record. The platform layer
 * reads the instruction (it may be unmapped: a jump to a bad address). */
#define ARCH_FAULT_FROM_INSN 1
static inline unsigned long arch_fault_code_from_insn(uint32_t insn)
{
	return (0x24ul << 26) | (1ul << 25) | ((unsigned long)arch_insn_is_write(insn) << 6) | 0x07;
}

/* An instruction abort from user mode (EC 0x20): a permission fault at
 * level 3 (IFSC 0x0f) where the page is mapped but not executable, else
 * a translation fault (0x07). For frames without an ESR record. */
static inline unsigned long arch_fault_code_fetch(int mapped)
{
	return (0x20ul << 26) | (1ul << 25) | (mapped ? 0x0f : 0x07);
}

static inline int arch_fault_code_is_fetch(unsigned long esr)
{
	return (esr >> 26) == 0x20;
}

static inline int arch_fault_code_is_write(unsigned long esr)
{
	return !arch_fault_code_is_fetch(esr) && ((esr >> 6) & 1);
}

#define ARCH_OOPS_PC "pc : "
static inline const char *arch_fault_access(unsigned long esr)
{
	return arch_fault_code_is_fetch(esr)   ? "instruction fetch"
	       : arch_fault_code_is_write(esr) ? "write access"
	                                       : "read access";
}

/* Software tags' inline checks end in `brk #0x900 | recover << 5 |
 * write << 4 | log2(size)` (0xf: the size is in x1), the address in x0:
 * the compilers' and the kernel's encoding. 1 and the fields when the
 * instruction at pc is one; the trap resumes past it (arch_skip_insn). */
#define ARCH_HAS_TBI 1
struct arch_tag_trap {
	uintptr_t addr;
	size_t size;
	int write, recover;
};
static inline int arch_tag_trap(const void *uctx, struct arch_tag_trap *t)
{
	const ucontext_t *uc = uctx;
	uint32_t insn = *(const uint32_t *)uc->uc_mcontext.pc;
	if ((insn & 0xffe0001fu) != 0xd4200000u)
		return 0;
	unsigned imm = (insn >> 5) & 0xffff;
	if ((imm & 0xff00) != 0x900)
		return 0;
	t->addr = uc->uc_mcontext.regs[0];
	t->size = (imm & 0xf) == 0xf ? uc->uc_mcontext.regs[1] : 1ul << (imm & 0xf);
	t->write = (imm >> 4) & 1;
	t->recover = (imm >> 5) & 1;
	return 1;
}

static inline void arch_skip_insn(void *uctx)
{
	((ucontext_t *)uctx)->uc_mcontext.pc += 4;
}

/* Zero [p, p+n) with plain stores, never DC ZVA: qemu-user 7.2 faults
 * (SEGV_MAPERR) on a DC ZVA through a pointer with a tag while tag checks
 * are on, PROT_MTE memory or not, and glibc's memset zeroes with it. */
static inline void arch_zero_plain(void *p, size_t n)
{
	uintptr_t a = (uintptr_t)p, e = a + n;
	for (; a < e && (a & 15); a++)
		*(volatile uint8_t *)a = 0;
	for (; e - a >= 64; a += 64)
		__asm__ volatile("stp xzr, xzr, [%0]\n\t"
		                 "stp xzr, xzr, [%0, #16]\n\t"
		                 "stp xzr, xzr, [%0, #32]\n\t"
		                 "stp xzr, xzr, [%0, #48]"
		                 :
		                 : "r"(a)
		                 : "memory");
	for (; a < e; a++)
		*(volatile uint8_t *)a = 0;
}

/* DFSC 0b0011xx: permission fault; otherwise not mapped. */
static inline const char *arch_fault_cause(unsigned long esr)
{
	return (esr & 0x3c) == 0x0c ? "permissions violation" : "not-present page";
}
#endif

#endif
