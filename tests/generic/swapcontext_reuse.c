// MODE: generic
// NOT: BUG: KASAN
// STDOUT: coroutine suspended
// STDOUT: stack reused: 65536
//
// A coroutine made with makecontext on a heap buffer runs instrumented
// frames with local arrays and switches back to main with swapcontext from
// deep inside them, never to be resumed. main then takes the buffer back as
// data: fills it with libc's memset and reads it with instrumented code.
// swapcontext clears the marks of the stack it switched to once more when
// it returns, as ASan's interceptor does, so no redzone of the abandoned
// frames is left in the buffer. Without that: stack-out-of-bounds in
// memset, called from main.
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ucontext.h>

#define STACK_SIZE (1 << 16)
static ucontext_t main_ctx, co_ctx;
static volatile int sink;
static void *(*volatile fill)(void *, int, size_t) = memset;

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

static void coroutine(void)
{
	deep(8);
}

int main(void)
{
	char *stack = malloc(STACK_SIZE);
	getcontext(&co_ctx);
	co_ctx.uc_stack.ss_sp = stack;
	co_ctx.uc_stack.ss_size = STACK_SIZE;
	co_ctx.uc_link = &main_ctx;
	makecontext(&co_ctx, coroutine, 0);
	swapcontext(&main_ctx, &co_ctx);
	printf("coroutine suspended\n");
	fill(stack, 1, STACK_SIZE);
	int n = 0;
	for (int i = 0; i < STACK_SIZE; i++)
		n += stack[i];
	printf("stack reused: %d\n", n);
	free(stack);
	return 0;
}
