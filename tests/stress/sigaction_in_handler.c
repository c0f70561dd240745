// REPEAT: 3
// STDOUT: sigaction: 200000 calls, 2000 faults caught in a timer's handler
// NOT: ukasan:
// NOT: BUG:
/* A program that sets its SIGSEGV handler again and again while a timer's
 * handler, on the same thread, faults and catches the fault (siglongjmp
 * out of its SIGSEGV handler). Under the preload SIGSEGV is ukasan's, so
 * sigaction and the fault's delivery both go through ukasan's table of the
 * program's handlers: a timer signal arriving while sigaction holds that
 * table's lock must not leave the fault's delivery spinning on it (it did:
 * the program hung). */
#define _GNU_SOURCE
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define CALLS  200000
#define FAULTS 2000

static sigjmp_buf back;
static volatile int faults;

static void on_segv(int sig)
{
	(void)sig;
	siglongjmp(back, 1);
}

static void on_timer(int sig)
{
	(void)sig;
	if (faults >= FAULTS)
		return;
	if (!sigsetjmp(back, 1)) {
		int *volatile wild = (int *)(uintptr_t)16;
		*wild = 1;
	}
	faults++;
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_timer;
	sigaction(SIGALRM, &sa, NULL);
	struct sigaction segv;
	memset(&segv, 0, sizeof(segv));
	segv.sa_handler = on_segv;
	segv.sa_flags = SA_NODEFER;
	sigaction(SIGSEGV, &segv, NULL);
	struct sigevent ev;
	memset(&ev, 0, sizeof(ev));
	ev.sigev_notify = SIGEV_THREAD_ID;
	ev.sigev_signo = SIGALRM;
	ev._sigev_un._tid = (pid_t)syscall(SYS_gettid);
	timer_t t;
	if (timer_create(CLOCK_MONOTONIC, &ev, &t))
		return 2;
	struct itimerspec every = {{0, 20000}, {0, 20000}};
	timer_settime(t, 0, &every, NULL);
	for (int i = 0; i < CALLS; i++)
		sigaction(SIGSEGV, &segv, NULL);
	while (faults < FAULTS)
		pause();
	timer_delete(t);
	printf("sigaction: %d calls, %d faults caught in a timer's handler\n", CALLS, FAULTS);
	return 0;
}
