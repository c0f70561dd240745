/* Resuming an interrupted context without rt_sigreturn, which OpenSSH's
 * pre-authentication filter (and others) do not allow: after a KFENCE
 * fault in such a sandbox the program must run on, as the kernel's KFENCE
 * lets it. The C side has restored the signal mask and the FPU/SSE/AVX
 * state; here the general registers, flags and rip come back.
 *
 * rip and rflags are put just below the interrupted code's red zone (128
 * bytes under its rsp), then popfq and `ret $128` leave rsp exactly where
 * it was. */
#ifndef UKASAN_STATIC
	.text
	.globl	ukasan_resume_gregs
	.hidden	ukasan_resume_gregs
	.type	ukasan_resume_gregs, @function
/* rdi: mcontext gregs (glibc's order: r8..r15, rdi, rsi, rbp, rbx, rdx,
 * rax, rcx, rsp, rip, eflags). */
ukasan_resume_gregs:
	mov	15*8(%rdi), %rax
	sub	$144, %rax
	mov	16*8(%rdi), %rcx
	mov	%rcx, 8(%rax)
	mov	17*8(%rdi), %rcx
	mov	%rcx, (%rax)
	mov	%rax, %rsp
	mov	0*8(%rdi), %r8
	mov	1*8(%rdi), %r9
	mov	2*8(%rdi), %r10
	mov	3*8(%rdi), %r11
	mov	4*8(%rdi), %r12
	mov	5*8(%rdi), %r13
	mov	6*8(%rdi), %r14
	mov	7*8(%rdi), %r15
	mov	9*8(%rdi), %rsi
	mov	10*8(%rdi), %rbp
	mov	11*8(%rdi), %rbx
	mov	12*8(%rdi), %rdx
	mov	13*8(%rdi), %rax
	mov	14*8(%rdi), %rcx
	mov	8*8(%rdi), %rdi
	popfq
	ret	$128
	.size	ukasan_resume_gregs, .-ukasan_resume_gregs
#endif
	.section .note.GNU-stack,"",@progbits
