// REPEAT: 2
// STDOUT: fork_sigaction: 300 children caught a fault while a thread set SIGSEGV's handler
// NOT: ukasan:
// NOT: BUG:
/* fork() while another thread keeps setting SIGSEGV's handler (SIGSEGV is
 * ukasan's under the preload: the program's handler goes into ukasan's
 * table of them, under its lock). Each child faults and catches the fault
 * in its handler, which ukasan delivers from that table: a child forked
 * while the other thread held the table's lock must not wait on it for
 * ever (each child has 10 s; the whole test 120). */
#define _GNU_SOURCE
#include <pthread.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHILDREN 300

static sigjmp_buf back;
static volatile int stop;

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(back, 1);
}

static void *setter(void *arg)
{
	struct sigaction *sa = arg;
	while (!stop)
		sigaction(SIGSEGV, sa, NULL);
	return NULL;
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_segv;
	sa.sa_flags = SA_NODEFER;
	sigaction(SIGSEGV, &sa, NULL);
	pthread_t t;
	if (pthread_create(&t, NULL, setter, &sa))
		return 2;
	int bad = 0;
	for (int i = 0; i < CHILDREN; i++) {
		pid_t pid = fork();
		if (pid < 0)
			return 3;
		if (pid == 0) {
			alarm(10);
			if (!sigsetjmp(back, 1)) {
				int *volatile wild = (int *)(uintptr_t)16;
				*wild = 1;
				_exit(4);
			}
			_exit(0);
		}
		int st;
		if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st)) {
			printf("child %d: status 0x%x\n", i, st);
			bad++;
		}
	}
	stop = 1;
	pthread_join(t, NULL);
	if (!bad)
		printf("fork_sigaction: %d children caught a fault while a thread set SIGSEGV's handler\n",
		       CHILDREN);
	return bad != 0;
}
