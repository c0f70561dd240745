// A program's own SIGSEGV handler, installed without a signal stack of its
// own, and a stack overflow: the kernel cannot push the handler's frame on
// the full stack, and killed the program without calling it. ukasan's
// handler runs on ukasan's alternate stack and passes the fault on, so the
// program's handler runs (on that stack), and the fault is its business:
// no report. tests/kfence/stack_overflow_own_altstack.c: a program that
// sets its own alternate stack keeps it.
// STATUS: 3
// STDOUT: the program's handler ran on ukasan's stack
// NOT: BUG:
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

static char own_stack[64 << 10];
static int use_own;

__attribute__((noinline)) static int recurse(volatile char *prev, int depth)
{
	volatile char frame[256];
	frame[0] = (char)depth;
	frame[255] = prev ? prev[0] : 0;
	return recurse(frame, depth + 1) + frame[255];
}

static void on_segv(int sig)
{
	(void)sig;
	char here;
	uintptr_t at = (uintptr_t)&here;
	int on_own = at >= (uintptr_t)own_stack && at < (uintptr_t)own_stack + sizeof(own_stack);
	stack_t ss;
	sigaltstack(NULL, &ss);
	const char *msg = !(ss.ss_flags & SS_ONSTACK) ? "not on a signal stack\n"
	                  : on_own                    ? "the program's handler ran on its own stack\n"
	                                              : "the program's handler ran on ukasan's stack\n";
	write(1, msg, strlen(msg));
	_exit(use_own == on_own ? 3 : 4);
}

int main(int argc, char **argv)
{
	use_own = argc > 1 && !strcmp(argv[1], "own");
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_segv;
	if (use_own) {
		stack_t ss = {.ss_sp = own_stack, .ss_size = sizeof(own_stack)};
		if (sigaltstack(&ss, NULL) != 0)
			return 90;
		sa.sa_flags = SA_ONSTACK;
	}
	sigaction(SIGSEGV, &sa, NULL);
	return recurse(NULL, 0);
}
