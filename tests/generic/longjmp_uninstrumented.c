// MODE: generic
// VARIANTS: gcc clang gcc-fortify clang-fortify
// NOT: BUG: KASAN
// STDOUT: jumped back 1
// STDOUT: jumped back 2
// STDOUT: filled 3000
//
// longjmp and siglongjmp called from code built without instrumentation,
// as a library's error path does (libpng's png_error), jump over
// instrumented frames with stack arrays, whose redzones stay; no
// instrumented code calls __asan_handle_no_return on the way, as the call
// into the uninstrumented function may return. The runtime's longjmp and
// siglongjmp clear the stack's marks from the jumper up, as ASan's do.
// Afterwards an uninstrumented function fills a large local array, over
// those frames' place, with libc's memset, which ukasan checks: no report.
// Without them: stack-out-of-bounds in memset, called from later(). The
// fortified builds call __longjmp_chk instead.
#include <setjmp.h>
#include <stdio.h>
#include <string.h>

static volatile int sink;
static jmp_buf env;
static sigjmp_buf sigenv;
static volatile int use_sig;
static void *(*volatile fill)(void *, int, size_t) = memset;

/* The library's error path: it may return, so its callers are not told. */
__attribute__((noinline, no_sanitize_address)) static void fail(void)
{
	if (sink >= 0) {
		if (use_sig)
			siglongjmp(sigenv, 2);
		longjmp(env, 1);
	}
}

__attribute__((noinline)) static void frames(int depth)
{
	char buf[40];
	for (int i = 0; i < 40; i++)
		((volatile char *)buf)[i] = (char)i;
	sink += buf[depth];
	if (depth == 0)
		fail();
	else
		frames(depth - 1);
	sink += buf[1];
}

/* Uninstrumented: its array gets no marks of its own, so the checked
 * memset sees whatever the earlier frames left there. */
__attribute__((noinline, no_sanitize_address)) static void later(void)
{
	char big[3000];
	fill(big, 1, sizeof(big));
	int n = 0;
	for (int i = 0; i < 3000; i++)
		n += ((volatile char *)big)[i];
	printf("filled %d\n", n);
}

__attribute__((noinline)) static void run(void)
{
	int r = setjmp(env);
	if (r == 0)
		frames(8);
	else
		printf("jumped back %d\n", r);
}

__attribute__((noinline)) static void run_sig(void)
{
	use_sig = 1;
	int r = sigsetjmp(sigenv, 1);
	if (r == 0)
		frames(8);
	else
		printf("jumped back %d\n", r);
}

int main(void)
{
	run();
	run_sig();
	later();
	return 0;
}
