/* Frames of many shapes, compiled several times: gcc -O2 without frame
 * pointers (nofp_), gcc -O2 with them (fp_), clang-16 -O2 (clang_). */
#include <alloca.h>
#include <setjmp.h>
#include <signal.h>
#include <string.h>

#include "_unwind_test.h"

#define CAT2(a, b) a##b
#define CAT(a, b)  CAT2(a, b)
#define F(name)    CAT(P, name)

__attribute__((noinline)) void F(plain)(const char *plan, leaf_fn leaf)
{
	sink++;
	dispatch(plan + 1, leaf);
	sink++;
}

/* A variable-sized frame: the CFA moves to rbp. */
__attribute__((noinline)) void F(alloca)(const char *plan, leaf_fn leaf)
{
	size_t n = 8 + (size_t)(sink & 255);
	char *p = alloca(n);
	memset(p, 1, n);
	touch(p);
	dispatch(plan + 1, leaf);
	sink += p[n - 1];
}

/* A large fixed frame. */
__attribute__((noinline)) void F(big)(const char *plan, leaf_fn leaf)
{
	char buf[20000];
	memset(buf, 2, sizeof(buf));
	touch(buf);
	dispatch(plan + 1, leaf);
	sink += buf[0] + buf[sizeof(buf) - 1];
}

/* Over-aligned locals: realigned through rbp. */
__attribute__((noinline)) void F(aligned)(const char *plan, leaf_fn leaf)
{
	_Alignas(64) char buf[64];
	touch(buf);
	dispatch(plan + 1, leaf);
	sink += buf[3];
}

/* Over-aligned locals and alloca: gcc realigns through r10 (DRAP) and
 * describes the frame with CFI expressions, CFA = *(rbp - 8). */
__attribute__((noinline)) void F(drap)(const char *plan, leaf_fn leaf)
{
	size_t n = 8 + (size_t)(sink & 63);
	char *p = alloca(n);
	_Alignas(32) char buf[32];
	memset(p, 4, n);
	touch(p);
	touch(buf);
	dispatch(plan + 1, leaf);
	sink += buf[3] + p[n - 1];
}

/* Many values live across the call: every callee-saved register is pushed,
 * rbp among them as an ordinary register. */
__attribute__((noinline)) void F(regs)(const char *plan, leaf_fn leaf)
{
	int a = sink, b = sink * 3, c = sink ^ 5, d = sink + 7, e = sink * 11, f = sink - 13;
	int g = sink | 17, h = sink * 19;
	dispatch(plan + 1, leaf);
	sink += a + b * c + d * e + f * g + h * a + (b ^ h);
}

__attribute__((noinline)) static void F(rec)(const char *plan, leaf_fn leaf, int k)
{
	if (k > 0)
		F(rec)(plan, leaf, k - 1);
	else
		dispatch(plan + 1, leaf);
	sink++;
}

__attribute__((noinline)) void F(recurse)(const char *plan, leaf_fn leaf)
{
	F(rec)(plan, leaf, 1 + (int)(strlen(plan) % 5));
	sink++;
}

/* A signal delivered here: its handler continues the plan. */
__attribute__((noinline)) void F(raise)(const char *plan, leaf_fn leaf)
{
	arm_signal(plan + 1, leaf);
	raise(SIGUSR1);
	sink++;
}

/* A fault in a leaf without a frame of its own: the handler continues the
 * plan on top of the interrupted instruction, then jumps back here. */
__attribute__((noinline)) void F(poke)(int *p)
{
	*p = 42;
}

__attribute__((noinline)) void F(fault)(const char *plan, leaf_fn leaf)
{
	sigjmp_buf env, *prev = fault_env;
	fault_env = &env;
	if (!sigsetjmp(env, 1)) {
		arm_signal(plan + 1, leaf);
		F(poke)(null_ptr);
	}
	fault_env = prev;
	sink++;
}
