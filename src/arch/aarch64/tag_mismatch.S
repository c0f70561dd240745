/* Software tags' outlined checks (clang's __hwasan_check_x<N>_<info>
 * stubs, emitted into each program) branch here on a tag mismatch, with
 * the Linux kernel's calling convention for them: the stub has pushed a
 * 256-byte frame holding x0 and x1 at [sp] and x29, x30 at [sp, #232];
 * x0 is the address, x1 the access info, x30 the return address into the
 * instrumented code. Everything but x16, x17 and the flags must come back
 * unchanged: the C report path is saved around, SIMD registers included
 * (the caller may be in the middle of floating-point code). */
#if defined(__aarch64__)

#ifdef UKASAN_STATIC
#define VISIBILITY(f) .hidden f
#else
#define VISIBILITY(f)
#endif

	.text
	.p2align 2
	.globl __hwasan_tag_mismatch
	.globl __hwasan_tag_mismatch_v2
	VISIBILITY(__hwasan_tag_mismatch)
	VISIBILITY(__hwasan_tag_mismatch_v2)
	.type __hwasan_tag_mismatch, %function
	.type __hwasan_tag_mismatch_v2, %function
__hwasan_tag_mismatch:
__hwasan_tag_mismatch_v2:
	.cfi_startproc
	.cfi_def_cfa sp, 256
	.cfi_offset x29, -24
	.cfi_offset x30, -16
	/* A frame record for frame-pointer walks: [x29] is the caller's x29,
	 * [x29, #8] the return address into the instrumented code. */
	add x29, sp, #232
	.cfi_def_cfa x29, 24
	stp x2, x3, [sp, #16]
	stp x4, x5, [sp, #32]
	stp x6, x7, [sp, #48]
	stp x8, x9, [sp, #64]
	stp x10, x11, [sp, #80]
	stp x12, x13, [sp, #96]
	stp x14, x15, [sp, #112]
	stp x16, x17, [sp, #128]
	str x18, [sp, #144]
	sub sp, sp, #384
	stp q0, q1, [sp, #0]
	stp q2, q3, [sp, #32]
	stp q4, q5, [sp, #64]
	stp q6, q7, [sp, #96]
	stp q16, q17, [sp, #128]
	stp q18, q19, [sp, #160]
	stp q20, q21, [sp, #192]
	stp q22, q23, [sp, #224]
	stp q24, q25, [sp, #256]
	stp q26, q27, [sp, #288]
	stp q28, q29, [sp, #320]
	stp q30, q31, [sp, #352]
	mrs x9, fpsr
	mrs x10, fpcr
	stp x9, x10, [x29, #-72]
	mov x2, x30
	bl __ukasan_tag_mismatch
	ldp x9, x10, [x29, #-72]
	msr fpsr, x9
	msr fpcr, x10
	ldp q0, q1, [sp, #0]
	ldp q2, q3, [sp, #32]
	ldp q4, q5, [sp, #64]
	ldp q6, q7, [sp, #96]
	ldp q16, q17, [sp, #128]
	ldp q18, q19, [sp, #160]
	ldp q20, q21, [sp, #192]
	ldp q22, q23, [sp, #224]
	ldp q24, q25, [sp, #256]
	ldp q26, q27, [sp, #288]
	ldp q28, q29, [sp, #320]
	ldp q30, q31, [sp, #352]
	add sp, sp, #384
	ldp x0, x1, [sp, #0]
	ldp x2, x3, [sp, #16]
	ldp x4, x5, [sp, #32]
	ldp x6, x7, [sp, #48]
	ldp x8, x9, [sp, #64]
	ldp x10, x11, [sp, #80]
	ldp x12, x13, [sp, #96]
	ldp x14, x15, [sp, #112]
	ldp x16, x17, [sp, #128]
	ldr x18, [sp, #144]
	ldp x29, x30, [sp, #232]
	add sp, sp, #256
	.cfi_def_cfa sp, 0
	.cfi_restore x29
	.cfi_restore x30
	ret
	.cfi_endproc
	.size __hwasan_tag_mismatch, . - __hwasan_tag_mismatch

	.section .note.GNU-stack, "", %progbits
#endif
