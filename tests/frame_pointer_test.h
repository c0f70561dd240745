/* For the tests of allocation stacks taken while the frame pointer register
 * (x29, rbp) holds data, not a frame record's address: code built without
 * frame pointers (Rust's, most of Debian's x86-64 C) uses it as any other
 * register, and the runtime's walk of frame records starts from its own
 * frames, whose first record saves that value. ripgrep under hardware tags
 * died of SIGSEGV at address -8 about once in 100 runs this way: x29 held
 * -8 when it called malloc.
 *
 * call_with_fp(fn, arg, fp) calls fn(arg) with the register set to fp. */
#ifndef FRAME_POINTER_TEST_H
#define FRAME_POINTER_TEST_H

#include <stdint.h>

uintptr_t call_with_fp(void *fn, uintptr_t arg, uintptr_t fp);

#if defined(__aarch64__)
__asm__(".text\n"
        ".p2align 2\n"
        ".type call_with_fp, %function\n"
        "call_with_fp:\n"
        "	stp x29, x30, [sp, #-16]!\n"
        "	mov x3, x0\n"
        "	mov x0, x1\n"
        "	mov x29, x2\n"
        "	blr x3\n"
        "	ldp x29, x30, [sp], #16\n"
        "	ret\n"
        ".size call_with_fp, .-call_with_fp\n");
#elif defined(__x86_64__)
__asm__(".text\n"
        ".type call_with_fp, @function\n"
        "call_with_fp:\n"
        "	push %rbp\n"
        "	mov %rdi, %rax\n"
        "	mov %rsi, %rdi\n"
        "	mov %rdx, %rbp\n"
        "	call *%rax\n"
        "	pop %rbp\n"
        "	ret\n"
        ".size call_with_fp, .-call_with_fp\n");
#else
#error "call_with_fp: x86-64 and arm64 only"
#endif

/* Values a data register holds: the last ones wrap a bound check of the
 * form fp + 16 <= stack top; the others are above, below or inside the
 * stack but not frame records. Returns how many allocate, are written and
 * freed. */
static inline int frame_pointer_values_run(void)
{
	char here;
	const uintptr_t values[] = {
	    0, 1, 8, 4096, (uintptr_t)&here + 64, (uintptr_t)&here + (1ul << 30), 1ul << 47,
	    1ul << 63, 0x7ffffffffffffff8ul, (uintptr_t)-4096, (uintptr_t)-32, (uintptr_t)-24,
	    (uintptr_t)-16, (uintptr_t)-8,
	};
	int done = 0;
	for (unsigned i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		char *p = (char *)call_with_fp((void *)malloc, 48, values[i]);
		if (!p)
			continue;
		for (int j = 0; j < 48; j++)
			((volatile char *)p)[j] = (char)j;
		call_with_fp((void *)free, (uintptr_t)p, values[i]);
		done++;
	}
	return done;
}

#endif
