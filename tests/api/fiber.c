// MODE: generic
// RUN-ALSO: kasan.stack_use_after_return=on
// __sanitizer_start_switch_fiber / __sanitizer_finish_switch_fiber around
// swapcontext (tests/api/_fiber.h): a clean coroutine program gives no
// report. Two fibers on the two halves of one mapping and main switch
// 300 times, each in the middle of a recursion whose frames hold stack
// arrays, and read their arrays again when resumed. Fiber A longjmps out
// of 30 such frames every round; the first time, an uninstrumented frame
// then fills that memory and instrumented code reads all of it:
// __asan_handle_no_return must have cleared the fiber's stack, which it
// knows only from the annotation.
// Fiber B ends for good from inside 20 frames (a NULL save), and fiber C
// starts on its stack: the annotation clears what B left behind.
// With kasan.stack_use_after_return=on (gcc's fake stacks), each fiber has
// its own fake stack: A's longjmps collect the frames deeper than it on
// its own stack only, not B's live ones, which lie lower in memory.
// Built with -DFIBER_UNANNOTATED, the same program reports a false
// stack-out-of-bounds in stale_sum (the longjmp, then the ended fiber)
// and, with fake stacks, a false stack-use-after-return in deep.
// STDOUT: A sum -8192
// STDOUT: C sum -8192
// STDOUT: done 300
// NOT: BUG: KASAN
// NOT: FAIL
#include "_fiber.h"

#include <setjmp.h>
#include <string.h>
#include <sys/mman.h>

#include "stale_stack_test.h"

#define STACK_SIZE (256ul << 10)
#define ROUNDS     300

static struct fiber *fa, *fb, *fc;
static jmp_buf env;
static volatile int yields;
/* Each array escapes here, so that no compiler can do without it. */
static char *volatile sink;

/* Frames with arrays on whichever stack runs it; at depth `at` it yields to
 * `to` and checks its arrays were left alone meanwhile. */
__attribute__((noinline)) static int deep(int n, int at, struct fiber *to)
{
	char buf[200];
	memset(buf, n, sizeof buf);
	sink = buf;
	if (n == at) {
		yields++;
		fiber_switch(to, 0);
	}
	int s = n > 0 ? deep(n - 1, at, to) : 0;
	for (size_t i = 0; i < sizeof buf; i++)
		FAIL_IF(buf[i] != n);
	return s + buf[n];
}

__attribute__((noinline, noreturn)) static void jump(int n)
{
	char buf[256];
	memset(buf, n, sizeof buf);
	sink = buf;
	if (n > 0)
		jump(n - buf[0] / n); /* n - 1, through the array */
	longjmp(env, 1);
}

static void fiber_a(void)
{
	fiber_arrived();
	for (volatile int r = 0;; r++) {
		/* every round, while B is suspended 4 frames deep */
		if (!setjmp(env))
			jump(30);
		if (r == 0) {
			printf("A sum %d\n", uninstrumented_frame());
			fflush(stdout);
		}
		deep(12, 3, fb);
	}
}

/* B's last recursion: it ends for good 20 frames down, arrays in each. */
__attribute__((noinline)) static void end_b(int n)
{
	char buf[200];
	memset(buf, n, sizeof buf);
	sink = buf;
	if (n > 0)
		end_b(n - buf[0] / n);
	fiber_switch(&main_fiber, 1);
	abort(); /* never resumed */
}

static void fiber_b(void)
{
	fiber_arrived();
	for (int r = 0; r < ROUNDS; r++)
		deep(10, 7, &main_fiber);
	end_b(20);
}

static void fiber_c(void)
{
	fiber_arrived();
	printf("C sum %d\n", uninstrumented_frame());
	fflush(stdout);
	fiber_switch(&main_fiber, 1);
}

int main(void)
{
	/* Fibers' control blocks come from the heap, as in most coroutine
	 * libraries: the runtime has seen main's stack before the first
	 * switch. */
	fa = calloc(3, sizeof *fa);
	FAIL_IF(!fa);
	fb = fa + 1;
	fc = fa + 2;
	/* One mapping: A on the upper half, B on the lower. */
	char *map = mmap(NULL, 2 * STACK_SIZE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS,
	                 -1, 0);
	FAIL_IF(map == MAP_FAILED);
	fiber_make(fa, map + STACK_SIZE, STACK_SIZE, fiber_a);
	fiber_make(fb, map, STACK_SIZE, fiber_b);
	/* main -> A -> B -> main, ROUNDS times, every one mid-recursion */
	for (int r = 0; r < ROUNDS; r++)
		deep(8, 2, fa);
	/* B's last round: it ends 20 frames down */
	fiber_switch(fb, 0);
	/* C on B's stack */
	fiber_make(fc, map, STACK_SIZE, fiber_c);
	fiber_switch(fc, 0);
	printf("done %d\n", yields / 3);
	munmap(map, 2 * STACK_SIZE);
	free(fa);
	return 0;
}
