// MODE: generic
// NOT: BUG: KASAN
// STDOUT: second coroutine done
//
// Coroutines with swapcontext and no annotations: the first is abandoned
// deep in instrumented frames, and a second one made on the same stack
// (uninstrumented) passes a large local array, where their redzones were, to an instrumented reader. swapcontext
// clears the marks of the stack it switches to, as ASan's interceptor
// does: no report.
#include <stdio.h>
#include <ucontext.h>

static ucontext_t main_ctx, co_ctx;
static char co_stack[1 << 16] __attribute__((aligned(16)));
static volatile int sink;

__attribute__((noinline)) static void deep(int depth)
{
	char buf[40];
	for (int i = 0; i < 40; i++)
		((volatile char *)buf)[i] = (char)i;
	sink += buf[depth];
	if (depth == 0)
		swapcontext(&co_ctx, &main_ctx); /* never resumed */
	else
		deep(depth - 1);
	sink += buf[1];
}

static void first(void)
{
	deep(8);
}

__attribute__((noinline)) static void consume(const char *p, int n)
{
	for (int i = 0; i < n; i++)
		sink += p[i];
}

/* Uninstrumented: its array gets no marks of its own, so the instrumented
 * reads in consume() see whatever the earlier frames left there. */
__attribute__((noinline, no_sanitize_address)) static void second(void)
{
	char big[3000];
	for (int i = 0; i < 3000; i++)
		((volatile char *)big)[i] = (char)i;
	consume(big, 3000);
	printf("second coroutine done\n");
	swapcontext(&co_ctx, &main_ctx);
}

static void run(void (*fn)(void))
{
	getcontext(&co_ctx);
	co_ctx.uc_stack.ss_sp = co_stack;
	co_ctx.uc_stack.ss_size = sizeof(co_stack);
	co_ctx.uc_link = &main_ctx;
	makecontext(&co_ctx, fn, 0);
	swapcontext(&main_ctx, &co_ctx);
}

int main(void)
{
	run(first);
	run(second);
	return 0;
}
