// MODE: generic
// Eight threads at once, each with every signal blocked as servers' worker
// threads have, write through fresh mappings, whose shadow (on arm64,
// mapped on demand when first touched) none of them has touched: threads
// fault on the same shadow chunks together, and a signal handler of the
// program's own with a full mask, run by a timer in the middle of it,
// touches fresh memory too. Every access must go on, with no report and no
// crash (the kernel kills a thread that faults with SIGSEGV blocked).
// NOT: BUG:
// STDOUT: sums ok
// STDOUT: handler ran
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/time.h>
#include <unistd.h>

enum { THREADS = 8, ROUNDS = 4, BYTES = 64 << 20 };

static pthread_barrier_t start;
static volatile sig_atomic_t handled;
static char *shared[ROUNDS];

static void on_alarm(int sig)
{
	(void)sig;
	/* Shadow of a fresh mapping, from inside a handler that blocks SIGSEGV. */
	char *p = mmap(NULL, BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p != MAP_FAILED) {
		for (long i = 0; i < BYTES; i += 1 << 20)
			((volatile char *)p)[i] = 1;
		munmap(p, BYTES);
		handled = 1;
	}
}

static void *worker(void *arg)
{
	long id = (long)arg, sum = 0;
	/* As servers' worker threads do: every signal blocked, SIGSEGV too. */
	sigset_t all;
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	for (int r = 0; r < ROUNDS; r++) {
		pthread_barrier_wait(&start);
		/* Each thread its own slice of one shared fresh mapping. */
		volatile char *p = shared[r] + id * (BYTES / THREADS);
		for (long i = 0; i < BYTES / THREADS; i += 4096) {
			p[i] = (char)(i >> 12);
			sum += p[i];
		}
		pthread_barrier_wait(&start);
	}
	return (void *)sum;
}

int main(void)
{
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_alarm;
	sigfillset(&sa.sa_mask);
	sigaction(SIGALRM, &sa, NULL);
	struct itimerval t = {{0, 0}, {0, 1000}};
	setitimer(ITIMER_REAL, &t, NULL);

	for (int r = 0; r < ROUNDS; r++) {
		shared[r] = mmap(NULL, BYTES, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (shared[r] == MAP_FAILED)
			return 2;
	}
	pthread_barrier_init(&start, NULL, THREADS + 1);
	pthread_t th[THREADS];
	for (long i = 0; i < THREADS; i++)
		pthread_create(&th[i], NULL, worker, (void *)i);
	for (int r = 0; r < ROUNDS; r++) {
		pthread_barrier_wait(&start);
		pthread_barrier_wait(&start);
	}
	long want = 0, bad = 0;
	for (long i = 0; i < BYTES / THREADS; i += 4096)
		want += (char)(i >> 12);
	for (int i = 0; i < THREADS; i++) {
		void *s;
		pthread_join(th[i], &s);
		bad += (long)s != want * ROUNDS;
	}
	while (!handled)
		pause();
	printf("sums %s\nhandler ran\n", bad ? "WRONG" : "ok");
	return 0;
}
