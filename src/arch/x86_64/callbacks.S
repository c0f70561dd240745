/* Register-preserving checks and reports for x86-64.
 *
 * Outline checks for clang (-mllvm -asan-optimize-callbacks):
 * __asan_check_{load,store}_add_{1,2,4,8,16}_<REG>, with the address in
 * <REG>. Only r10, r11 and the flags may change, so the caller keeps its
 * values in registers across the check.
 *
 * The shadow offset is ukasan's fixed one (arch.h). A failed
 * test saves everything the C report path may touch, reports through
 * __ukasan_access_failed, and returns to the instrumented code, as
 * kasan.fault=report wants. */
#if defined(__x86_64__)

#include "arch.h"
#define SHADOW_OFFSET ARCH_SHADOW_OFFSET

/* libukasan.so exports them, for shared libraries; executables link a
 * private copy (libukasan_static.a), called without a PLT jump. */
#ifdef UKASAN_STATIC
#define VISIBILITY(f) .hidden f
#else
#define VISIBILITY(f)
#endif

	.text

/* Every entry below that finds a bad access pushes the address, the size
 * and the write flag, and jumps here; above them is the return address into
 * the instrumented code, the report's "ip". Nothing is changed on the way
 * in (pushes and a jump), and everything is restored on the way out. */
	.p2align 4
	.type ukasan_access_failed, @function
	.globl ukasan_access_failed
	.hidden ukasan_access_failed
ukasan_access_failed:
	.cfi_startproc
	.cfi_def_cfa_offset 32
	pushq %rbp
	.cfi_def_cfa_offset 40
	.cfi_offset %rbp, -40
	movq %rsp, %rbp
	.cfi_def_cfa_register %rbp
	pushq %rax
	pushq %rcx
	pushq %rdx
	pushq %rsi
	pushq %rdi
	pushq %r8
	pushq %r9
	pushq %r10
	pushq %r11
	pushq %rbx
	/* Vector and x87 state too: the report path runs libc code that uses
	 * them. rbx = the XSAVE area size for the state the OS enabled, or 0
	 * for FXSAVE's 512 bytes. */
	movl $1, %eax
	cpuid
	btl $27, %ecx /* OSXSAVE */
	movl $0, %ebx
	jnc 1f
	movl $0xd, %eax
	xorl %ecx, %ecx
	cpuid
1:	movl $512, %eax
	testl %ebx, %ebx
	cmovnzl %ebx, %eax
	subq %rax, %rsp
	andq $-64, %rsp
	testl %ebx, %ebx
	jz 2f
	xorl %eax, %eax /* XRSTOR wants the header's reserved bytes zero */
	movq %rax, 512(%rsp)
	movq %rax, 520(%rsp)
	movq %rax, 528(%rsp)
	movq %rax, 536(%rsp)
	movq %rax, 544(%rsp)
	movq %rax, 552(%rsp)
	movq %rax, 560(%rsp)
	movq %rax, 568(%rsp)
	movl $-1, %eax
	movl $-1, %edx
	xsave64 (%rsp)
	jmp 3f
2:	fxsave64 (%rsp)
3:	movq 24(%rbp), %rdi /* address */
	movq 16(%rbp), %rsi /* size */
	movq 8(%rbp), %rdx  /* write */
	movq 32(%rbp), %rcx /* return address */
	call __ukasan_access_failed@PLT
	testl %ebx, %ebx
	jz 4f
	movl $-1, %eax
	movl $-1, %edx
	xrstor64 (%rsp)
	jmp 5f
4:	fxrstor64 (%rsp)
5:	leaq -80(%rbp), %rsp
	popq %rbx
	popq %r11
	popq %r10
	popq %r9
	popq %r8
	popq %rdi
	popq %rsi
	popq %rdx
	popq %rcx
	popq %rax
	popq %rbp
	.cfi_def_cfa %rsp, 32
	leaq 24(%rsp), %rsp /* not add: the flags stay as they were, too */
	.cfi_def_cfa_offset 8
	ret
	.cfi_endproc
	.size ukasan_access_failed, . - ukasan_access_failed
/* Its end, for the unwinder: its frame record is not where a C function's
 * is (the arguments pushed sit between it and the return address). */
	.globl ukasan_access_failed_end
	.hidden ukasan_access_failed_end
ukasan_access_failed_end:

#define NAME(reg, op, n) __asan_check_##op##_add_##n##_##reg

#define BEGIN(reg, op, n)                                                      \
	.globl NAME(reg, op, n);                                                \
	VISIBILITY(NAME(reg, op, n));                                           \
	.type NAME(reg, op, n), @function;                                      \
	.p2align 4;                                                             \
NAME(reg, op, n):                                                               \
	.cfi_startproc;                                                         \
	movq %reg, %r10;                                                        \
	shrq $3, %r10

/* Address, size and write flag to ukasan_access_failed, and the function's
 * end. */
#define TO_FAILED_AND_END(name, addr, len, write)                              \
	pushq addr;                                                             \
	.cfi_adjust_cfa_offset 8;                                               \
	pushq len;                                                              \
	.cfi_adjust_cfa_offset 8;                                               \
	pushq $write;                                                           \
	.cfi_adjust_cfa_offset 8;                                               \
	jmp ukasan_access_failed;                                               \
	.cfi_endproc;                                                           \
	.size name, . - name

/* The shadow says no. */
#define FAIL_AND_END(reg, op, n, write) TO_FAILED_AND_END(NAME(reg, op, n), %reg, $n, write)

/* 1, 2 and 4 bytes: a nonzero shadow byte k still allows the first k bytes
 * of the granule. */
#define CHECK_SMALL(reg, op, n, write)                                         \
	BEGIN(reg, op, n);                                                      \
	movsbl SHADOW_OFFSET(%r10), %r10d;                                      \
	testl %r10d, %r10d;                                                     \
	jnz 1f;                                                                 \
	ret;                                                                    \
1:	movq %reg, %r11;                                                        \
	andl $7, %r11d;                                                         \
	addl $(n - 1), %r11d;                                                   \
	cmpl %r10d, %r11d;                                                      \
	jge 2f;                                                                 \
	ret;                                                                    \
2:	FAIL_AND_END(reg, op, n, write)

/* 8 and 16 bytes (aligned, as clang only uses these for aligned accesses):
 * any nonzero shadow byte is bad. */
#define CHECK_WHOLE(reg, op, n, write, insn)                                   \
	BEGIN(reg, op, n);                                                      \
	insn $0, SHADOW_OFFSET(%r10);                                           \
	jnz 1f;                                                                 \
	ret;                                                                    \
1:	FAIL_AND_END(reg, op, n, write)

#define CHECKS(reg)                                                            \
	CHECK_SMALL(reg, load, 1, 0);                                           \
	CHECK_SMALL(reg, store, 1, 1);                                          \
	CHECK_SMALL(reg, load, 2, 0);                                           \
	CHECK_SMALL(reg, store, 2, 1);                                          \
	CHECK_SMALL(reg, load, 4, 0);                                           \
	CHECK_SMALL(reg, store, 4, 1);                                          \
	CHECK_WHOLE(reg, load, 8, 0, cmpb);                                     \
	CHECK_WHOLE(reg, store, 8, 1, cmpb);                                    \
	CHECK_WHOLE(reg, load, 16, 0, cmpw);                                    \
	CHECK_WHOLE(reg, store, 16, 1, cmpw)

/* Clang never passes the address in r10 or r11. */
CHECKS(RAX)
CHECKS(RBX)
CHECKS(RCX)
CHECKS(RDX)
CHECKS(RSI)
CHECKS(RDI)
CHECKS(RBP)
CHECKS(R8)
CHECKS(R9)
CHECKS(R12)
CHECKS(R13)
CHECKS(R14)
CHECKS(R15)

/* The inline checks' report calls, __asan_report_{load,store}N_noabort(addr)
 * and the _n forms (addr, size), keep every register too. For gcc that is
 * just more than the C ABI asks. clang sees them declared
 * no_caller_saved_registers (ukasan-cc includes clang_reports.h), so around
 * an inline check in a vectorised loop it spills nothing; with ordinary
 * calls it spilled every live vector register at every check. */
#define REPORT_ENTRY(name)                                                     \
	.globl name;                                                            \
	VISIBILITY(name);                                                       \
	.type name, @function;                                                  \
	.p2align 4;                                                             \
name:                                                                           \
	.cfi_startproc

#define REPORT(op, n, write)                                                   \
	REPORT_ENTRY(__asan_report_##op##n##_noabort);                          \
	TO_FAILED_AND_END(__asan_report_##op##n##_noabort, %rdi, $n, write)

#define REPORT_N(op, write)                                                    \
	REPORT_ENTRY(__asan_report_##op##_n_noabort);                           \
	TO_FAILED_AND_END(__asan_report_##op##_n_noabort, %rdi, %rsi, write)

REPORT(load, 1, 0)
REPORT(store, 1, 1)
REPORT(load, 2, 0)
REPORT(store, 2, 1)
REPORT(load, 4, 0)
REPORT(store, 4, 1)
REPORT(load, 8, 0)
REPORT(store, 8, 1)
REPORT(load, 16, 0)
REPORT(store, 16, 1)
REPORT_N(load, 0)
REPORT_N(store, 1)

#endif

	.section .note.GNU-stack, "", @progbits
