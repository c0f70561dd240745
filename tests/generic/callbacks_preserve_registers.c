// MODE: generic
// VARIANTS: gcc clang-outline
// RUN: kasan_multi_shot
// ARCH: x86_64 -- x86-64's register-preserving callbacks (src/arch/x86_64/callbacks.S): clang emits __asan_check_*_add_N_REG only for x86-64, no_caller_saved_registers is an x86 attribute, and the probes are x86 assembly; on arm64 the outline checks and reports are ordinary calls under the AAPCS64
// clang's outline checks (-asan-optimize-callbacks) call
// __asan_check_{load,store}_add_N_REG, which may change only r10, r11 and
// the flags, even when they report; the inline checks' report calls
// (__asan_report_*_noabort, declared no_caller_saved_registers for clang)
// must keep every register, r10 and r11 included. Each probe loads every other register (and the
// vector registers, with their AVX upper halves when the CPU has AVX) with a
// pattern, calls one of them on a bad address, and compares.
// EXPECT: BUG: KASAN: slab-out-of-bounds in probe_store4_rax+0x
// EXPECT-RE: ^Write of size 4 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT-RE: ^ \[<[0-9a-f]+>\] probe_store4_rax\+0x[0-9a-f]+/0x[0-9a-f]+ \[\S+\+0x[0-9a-f]+ [0-9a-f]{40}\]\n \[<[0-9a-f]+>\] run\+0x[0-9a-f]+/0x[0-9a-f]+ tests/generic/callbacks_preserve_registers.c:\d+\n \[<[0-9a-f]+>\] main\+
// EXPECT: BUG: KASAN: slab-out-of-bounds in probe_load16_rdi+0x
// EXPECT-RE: ^Read of size 16 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: BUG: KASAN: slab-out-of-bounds in probe_load1_r15+0x
// EXPECT-RE: ^Read of size 1 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: BUG: KASAN: slab-use-after-free in probe_store8_rbx+0x
// EXPECT-RE: ^Write of size 8 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: BUG: KASAN: slab-out-of-bounds in probe_report_load8+0x
// EXPECT-RE: ^Read of size 8 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: BUG: KASAN: slab-out-of-bounds in probe_report_store_n+0x
// EXPECT-RE: ^Write of size 6 at addr [0-9a-f]{16} by task \S+/\d+$
// COUNT: 6 BUG: KASAN:
// STDOUT: probe_store4_rax: registers kept
// STDOUT: probe_load16_rdi: registers kept
// STDOUT: probe_load1_r15: registers kept
// STDOUT: probe_store8_rbx: registers kept
// STDOUT: probe_load2_r8: registers kept (no report: in bounds)
// STDOUT: probe_report_load8: registers kept
// STDOUT: probe_report_store_n: registers kept
#include "kasan_test.h"

#include <cpuid.h>

/* 15 general registers (all but rsp), a spare slot, then 16 ymm registers. */
struct regs {
	uint64_t g[16];
	uint8_t v[16][32];
};
struct regs before, after;
int use_avx;

/* Order of g[]: rax rbx rcx rdx rsi rdi rbp r8 r9 r12 r13 r14 r15 r10 r11.
 * The address goes in g[REG] before the call. */
#define GPRS(op)                                                                                   \
	op "%rax, 0" op "%rbx, 8" op "%rcx, 16" op "%rdx, 24" op "%rsi, 32" op "%rdi, 40" op       \
	   "%rbp, 48" op "%r8, 56" op "%r9, 64" op "%r12, 72" op "%r13, 80" op "%r14, 88" op    \
	   "%r15, 96"

#define VEC_XMM(i) "movdqu before+128+32*" #i "(%rip), %xmm" #i "\n"
#define VEC_YMM(i) "vmovdqu before+128+32*" #i "(%rip), %ymm" #i "\n"
#define SAVE_XMM(i) "movdqu %xmm" #i ", after+128+32*" #i "(%rip)\n"
#define SAVE_YMM(i) "vmovdqu %ymm" #i ", after+128+32*" #i "(%rip)\n"
#define ALL16(m) m(0) m(1) m(2) m(3) m(4) m(5) m(6) m(7) m(8) m(9) m(10) m(11) m(12) m(13) m(14) m(15)

/* probe_NAME(): callee-saved registers kept for the C caller; loads all,
 * calls CALLBACK, stores all. Its CFI lets the report's stack go on to
 * main, through the callback's own frame. */
#define PROBE(name, callback)                                                                      \
	__asm__(".text\n.globl " #name "\n.type " #name ",@function\n" #name ":\n"                    \
	        ".cfi_startproc\npush %rbp\n.cfi_def_cfa_offset 16\n.cfi_offset %rbp, -16\npush %rbx\npush %r12\npush %r13\n"   \
	        "push %r14\npush %r15\nsub $8, %rsp\n.cfi_def_cfa_offset 64\n"                       \
	        "cmpl $0, use_avx(%rip)\njz 1f\n" ALL16(VEC_YMM) "jmp 2f\n1:\n" ALL16(VEC_XMM) "2:\n"   \
	        "push %rbp\n.cfi_def_cfa_offset 72\n"                                               \
	        "mov before+0(%rip), %rax\nmov before+8(%rip), %rbx\nmov before+16(%rip), %rcx\n"     \
	        "mov before+24(%rip), %rdx\nmov before+32(%rip), %rsi\nmov before+40(%rip), %rdi\n"   \
	        "mov before+48(%rip), %rbp\nmov before+56(%rip), %r8\nmov before+64(%rip), %r9\n"     \
	        "mov before+72(%rip), %r12\nmov before+80(%rip), %r13\nmov before+88(%rip), %r14\n"   \
	        "mov before+96(%rip), %r15\nmov before+104(%rip), %r10\nmov before+112(%rip), %r11\n"  \
	        "call " #callback "\n"                                                             \
	        "mov %rax, after+0(%rip)\nmov %rbx, after+8(%rip)\nmov %rcx, after+16(%rip)\n"        \
	        "mov %rdx, after+24(%rip)\nmov %rsi, after+32(%rip)\nmov %rdi, after+40(%rip)\n"      \
	        "mov %rbp, after+48(%rip)\nmov %r8, after+56(%rip)\nmov %r9, after+64(%rip)\n"        \
	        "mov %r12, after+72(%rip)\nmov %r13, after+80(%rip)\nmov %r14, after+88(%rip)\n"      \
	        "mov %r15, after+96(%rip)\nmov %r10, after+104(%rip)\nmov %r11, after+112(%rip)\n"    \
	        "pop %rbp\n.cfi_def_cfa_offset 64\n"                                                \
	        "cmpl $0, use_avx(%rip)\njz 3f\n" ALL16(SAVE_YMM) "vzeroupper\njmp 4f\n3:\n" ALL16(SAVE_XMM) \
	        "4:\nadd $8, %rsp\npop %r15\npop %r14\npop %r13\npop %r12\npop %rbx\npop %rbp\n"        \
	        ".cfi_def_cfa_offset 8\nret\n.cfi_endproc\n"                                          \
	        ".size " #name ", .-" #name "\n");                                                 \
	void name(void)

PROBE(probe_store4_rax, __asan_check_store_add_4_RAX);
PROBE(probe_load16_rdi, __asan_check_load_add_16_RDI);
PROBE(probe_load1_r15, __asan_check_load_add_1_R15);
PROBE(probe_store8_rbx, __asan_check_store_add_8_RBX);
PROBE(probe_load2_r8, __asan_check_load_add_2_R8);
PROBE(probe_report_load8, __asan_report_load8_noabort);
PROBE(probe_report_store_n, __asan_report_store_n_noabort);

enum { RAX, RBX, RCX, RDX, RSI, RDI, RBP, R8, R9, R12, R13, R14, R15, R10, R11 };
static uint64_t before_rsi; /* the size argument of the _n report */

__attribute__((noinline)) /* The checks may change r10 and r11; the reports may not. */
static void run(const char *name, void (*probe)(void), int reg, void *addr, int keeps_all,
                const char *note)
{
	for (int i = 0; i < 16; i++)
		before.g[i] = 0x1111111111111111ull * (uint64_t)(i + 1) ^ 0xa5a5000000000000ull;
	for (int i = 0; i < 16; i++)
		for (int j = 0; j < 32; j++)
			before.v[i][j] = (uint8_t)(i * 37 + j * 11 + 1);
	before.g[reg] = (uint64_t)(uintptr_t)addr;
	if (before_rsi)
		before.g[RSI] = before_rsi;
	memset(&after, 0, sizeof(after));
	probe();
	int bad = 0;
	for (int i = 0; i < (keeps_all ? 15 : 13); i++)
		if (after.g[i] != before.g[i]) {
			printf("%s: general register %d changed: %016llx -> %016llx\n", name, i,
			       (unsigned long long)before.g[i], (unsigned long long)after.g[i]);
			bad = 1;
		}
	for (int i = 0; i < 16; i++)
		if (memcmp(after.v[i], before.v[i], use_avx ? 32 : 16)) {
			printf("%s: vector register %d changed\n", name, i);
			bad = 1;
		}
	if (!bad)
		printf("%s: registers kept%s\n", name, note);
	fflush(stdout);
}

int main(void)
{
	unsigned a, b, c, d;
	use_avx = __get_cpuid(1, &a, &b, &c, &d) && (c & bit_AVX) && (c & bit_OSXSAVE);
	char *p = malloc(20);
	char *q = malloc(64);
	long *f = malloc(32);
	OPTIMIZER_HIDE_VAR(p);
	OPTIMIZER_HIDE_VAR(q);
	OPTIMIZER_HIDE_VAR(f);
	free(f);
	run("probe_store4_rax", probe_store4_rax, RAX, p + 18, 0, "");  /* bytes 18..21 of 20 */
	run("probe_load16_rdi", probe_load16_rdi, RDI, q + 64, 0, "");  /* just past the end */
	run("probe_load1_r15", probe_load1_r15, R15, p + 20, 0, "");    /* the first byte after */
	run("probe_store8_rbx", probe_store8_rbx, RBX, f + 1, 0, "");   /* freed */
	run("probe_load2_r8", probe_load2_r8, R8, p + 18, 0, " (no report: in bounds)");
	run("probe_report_load8", probe_report_load8, RDI, q + 64, 1, "");
	before_rsi = 6; /* __asan_report_store_n_noabort(addr, size) */
	run("probe_report_store_n", probe_report_store_n, RDI, p + 16, 1, "");
	free(p);
	free(q);
	return 0;
}
