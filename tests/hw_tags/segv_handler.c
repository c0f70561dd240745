// ARCH: aarch64 -- memory tagging is arm64's
// RUN: kasan=on kfence.sample_interval=0
// COUNT: 1 BUG: KASAN:
// STDOUT: handler: NULL fault at 0x8, code 1
// STDOUT: handler: second fault at 0x10
#include "hw_tags/hw_tags_test.h"

#include <setjmp.h>
#include <signal.h>

/* A program's own SIGSEGV handler still gets its ordinary faults (with the
 * address as Linux gives it, tag bits stripped), before and after a tag
 * fault that the runtime reports and handles itself. */
static sigjmp_buf env;

static void on_segv(int sig, siginfo_t *si, void *uc)
{
	(void)sig;
	(void)uc;
	static int n;
	if (n++ == 0)
		printf("handler: NULL fault at %p, code %d\n", si->si_addr, si->si_code);
	else
		printf("handler: second fault at %p\n", si->si_addr);
	siglongjmp(env, 1);
}

static HW_TEST void tag_fault(void)
{
	char *p = malloc(24);
	free(p);
	HW_EXPECT_FAIL(hw_int_result = p[0], .type = "slab-use-after-free", .rw = "Read", .size = 1, .addr = p, .mem = "0e", .obj = p, .obj_size = 24, .freed = 1, .alloc_line = __LINE__ - 2, .free_line = __LINE__ - 1);
}

int main(void)
{
	struct sigaction sa = {.sa_sigaction = on_segv, .sa_flags = SA_SIGINFO | SA_NODEFER};
	sigaction(SIGSEGV, &sa, NULL);
	if (!sigsetjmp(env, 1))
		*(volatile int *)8 = 1;
	fflush(stdout);
	tag_fault();
	if (!sigsetjmp(env, 1))
		hw_int_result = *(volatile int *)16;
	fflush(stdout);
	return 0;
}
