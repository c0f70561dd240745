/* A report from a signal handler that interrupted the program's own
 * syslog() (check_sinks.py): glibc's syslog holds its lock in the call, so
 * a sink that went through syslog() would deadlock here. The handler makes
 * its bad access only when it landed inside syslog(); else it waits for
 * the next tick. */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/time.h>
#include <syslog.h>

static volatile sig_atomic_t in_syslog, done;
static char *volatile buf;
static volatile int idx = 16;

static void tick(int sig)
{
	(void)sig;
	if (!in_syslog || done)
		return;
	buf[idx] = 1; /* one past the end: a KASAN report from the handler */
	done = 1;
}

int main(void)
{
	buf = malloc(16);
	openlog("ukasan-test", LOG_NDELAY, LOG_USER);
	signal(SIGALRM, tick);
	struct itimerval it = {{0, 1000}, {0, 1000}};
	setitimer(ITIMER_REAL, &it, NULL);
	for (long i = 0; !done && i < 2000000; i++) {
		in_syslog = 1;
		syslog(LOG_DEBUG, "ukasan test message %ld", i);
		in_syslog = 0;
	}
	struct itimerval off = {{0, 0}, {0, 0}};
	setitimer(ITIMER_REAL, &off, NULL);
	printf("interrupted syslog: %d\n", (int)done);
	free(buf);
	return 0;
}
