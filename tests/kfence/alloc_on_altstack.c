// RUN: kfence.sample_rate=1
// EXPECT: BUG: KFENCE: out-of-bounds read in read_byte+0x
// EXPECT-RE: ^allocated by task \d+ on cpu \d+ at \d+\.\d{6}s:\n test_alloc\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kfence_test.h:\d+\n on_usr1\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kfence/alloc_on_altstack.c:\d+\n( .*\n){0,4} main\+0x[0-9a-f]+/0x[0-9a-f]+ tests/kfence/alloc_on_altstack.c:\d+$
// COUNT: 1 BUG: KFENCE:
// STDOUT: handler ran on its alternate stack
/* An allocation in a signal handler that runs on the program's own
 * alternate stack: its stack is walked from there, through the signal
 * frame, into the frames the signal interrupted (the thread's stack is
 * another mapping; the unwinder reads it under a guard). */
#include <signal.h>
#include <string.h>

#include "kfence_test.h"

static char altstack[64 * 1024];
static char *volatile object;
static volatile int on_alt;

__attribute__((noinline)) char read_byte(volatile char *p)
{
	return *p;
}

static void on_usr1(int sig)
{
	(void)sig;
	char here;
	on_alt = &here >= altstack && &here < altstack + sizeof(altstack);
	object = test_alloc(32, RIGHT);
}

int main(void)
{
	stack_t ss = {.ss_sp = altstack, .ss_size = sizeof(altstack)};
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_usr1;
	sa.sa_flags = SA_ONSTACK;
	if (sigaltstack(&ss, NULL) || sigaction(SIGUSR1, &sa, NULL))
		return 2;
	raise(SIGUSR1);
	if (on_alt)
		printf("handler ran on its alternate stack\n");
	fflush(stdout);
	read_byte(object + 32);
	free(object);
	return 0;
}
