/* The body of signals.c and signals_stash.c. */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <sys/time.h>
#include <time.h>

#include "_stress.h"

/* Signal handlers that allocate, interrupting threads that allocate: a
 * timer (SIGALRM, every 100 us) and a thread sending SIGUSR1 to the others
 * as fast as it can. Not async-signal-safe in POSIX terms, but programs do
 * it, and glibc copes as long as its own malloc is not the one
 * interrupted. Under sample_rate=1 every small allocation of the
 * interrupted code goes to KFENCE, so the handlers land inside ukasan's
 * allocator, its stack capture, its free path; the handlers' own
 * allocations are guarded too, or go to glibc while the interrupted code is
 * inside the pool. Nothing may deadlock, no object may change under its
 * owner, nothing is reported, and the threads still get guarded objects at
 * the end. */
#define WORKERS 2
#define ITERS   4000
#define LIVE    16

static volatile int stop;
static long handled;

/* With STASH, each thread's handlers keep that many objects from one run
 * to the next, so a handler also frees what an earlier handler allocated,
 * guarded or not, whatever the interrupted code is doing: inside the pool's
 * slot list, say. Without, a handler frees only what it allocated itself. */
#ifndef STASH
#define STASH 0
#endif
static __thread char *stash[STASH + 1];
static __thread size_t stash_size[STASH + 1];
static __thread unsigned stash_tag[STASH + 1];
static __thread unsigned stash_next;

static void on_signal(int sig)
{
	(void)sig;
	int saved = errno;
	static __thread unsigned seed;
	if (!seed)
		seed = (unsigned)(uintptr_t)&seed | 1;
	size_t n = 1 + next_rand(&seed) % 300;
	unsigned s = next_rand(&seed);
	char *p = next_rand(&seed) % 2 ? malloc(n) : calloc(n, 1);
	CHECK(p);
	fill(p, n, s);
	char *q = realloc(p, n * 2);
	CHECK(q && intact(q, n, s));
	if (STASH) {
		unsigned k = stash_next++ % (STASH ? STASH : 1);
		if (stash[k]) {
			CHECK(intact(stash[k], stash_size[k], stash_tag[k]));
			free(stash[k]);
		}
		stash[k] = q;
		stash_size[k] = n;
		stash_tag[k] = s;
	} else {
		free(q);
	}
	__atomic_add_fetch(&handled, 1, __ATOMIC_RELAXED);
	errno = saved;
}

static void *work(void *arg)
{
	unsigned seed = (unsigned)(uintptr_t)arg * 2654435761u | 1;
	char *live[LIVE] = {0};
	size_t size[LIVE] = {0};
	unsigned tag[LIVE] = {0};
	for (int i = 0; i < ITERS; i++) {
		int k = i % LIVE;
		if (live[k]) {
			CHECK(intact(live[k], size[k], tag[k]));
			if (i % 3 == 0) {
				size_t n = 1 + next_rand(&seed) % 2000;
				char *q = realloc(live[k], n);
				CHECK(q);
				CHECK(intact(q, n < size[k] ? n : size[k], tag[k]));
				free(q);
			} else {
				free(live[k]);
			}
		}
		size[k] = 1 + next_rand(&seed) % 2000;
		tag[k] = next_rand(&seed);
		live[k] = i % 2 ? malloc(size[k]) : calloc(1, size[k]);
		CHECK(live[k]);
		fill(live[k], size[k], tag[k]);
	}
	for (int k = 0; k < LIVE; k++) {
		CHECK(intact(live[k], size[k], tag[k]));
		free(live[k]);
	}
	/* This thread still gets guarded objects. */
	void *p = malloc(48);
	CHECK(guarded(p));
	free(p);
	/* On its way out glibc frees this thread's cache inside its own
	 * malloc: a handler that frees there deadlocks with or without
	 * ukasan, so the handlers stop here. */
	sigset_t all;
	sigemptyset(&all);
	sigaddset(&all, SIGALRM);
	sigaddset(&all, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	return NULL;
}

static pthread_t targets[WORKERS + 1];

static void *sender(void *arg)
{
	(void)arg;
	struct timespec ts = {0, 20000};
	for (unsigned i = 0; !stop; i++) {
		pthread_kill(targets[i % (WORKERS + 1)], SIGUSR1);
		nanosleep(&ts, NULL);
	}
	return NULL;
}

int main(void)
{
	CHECK(ukasan_is_kfence_address);
	struct sigaction sa;
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sa.sa_flags = SA_RESTART;
	/* Handlers do not nest: a handler that landed in glibc's malloc (the
	 * interrupted code being inside the pool) must not be interrupted by
	 * another that allocates there too, which would hang without ukasan. */
	sigemptyset(&sa.sa_mask);
	sigaddset(&sa.sa_mask, SIGALRM);
	sigaddset(&sa.sa_mask, SIGUSR1);
	CHECK(sigaction(SIGALRM, &sa, NULL) == 0);
	CHECK(sigaction(SIGUSR1, &sa, NULL) == 0);

	targets[0] = pthread_self();
	pthread_t t[WORKERS], s;
	for (long i = 0; i < WORKERS; i++)
		CHECK(pthread_create(&t[i], NULL, work, (void *)(i + 1)) == 0);
	for (int i = 0; i < WORKERS; i++)
		targets[i + 1] = t[i];
	/* The sender gets neither signal: it only sends. */
	sigset_t block, old;
	sigemptyset(&block);
	sigaddset(&block, SIGALRM);
	sigaddset(&block, SIGUSR1);
	pthread_sigmask(SIG_BLOCK, &block, &old);
	CHECK(pthread_create(&s, NULL, sender, NULL) == 0);
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	struct itimerval it = {{0, 100}, {0, 100}};
	CHECK(setitimer(ITIMER_REAL, &it, NULL) == 0);

	work(0);
	for (int i = 0; i < WORKERS; i++)
		pthread_join(t[i], NULL);

	struct itimerval off = {{0, 0}, {0, 0}};
	setitimer(ITIMER_REAL, &off, NULL);
	stop = 1;
	pthread_join(s, NULL);
	long h = __atomic_load_n(&handled, __ATOMIC_RELAXED);
	fprintf(stderr, "%ld allocating handlers ran\n", h);
	/* Enough interruptions that many landed inside the allocator. */
	CHECK(h >= 500);
	printf("%s: every object intact\n", STASH ? "signals with stash" : "signals");
	return 0;
}
