// RUN: kfence.sample_rate=1
// RUN-ALSO: kfence.sample_interval=1 kfence.burst=32
// REPEAT: 20
// STDOUT: fork: 20 children, all exited 0
// NOT: BUG: KFENCE
// NOT: ukasan:
#include <pthread.h>
#include <sys/wait.h>

#include "_stress.h"

/* fork() from a threaded program while its other threads allocate and free
 * (guarded objects among them): whatever lock of ukasan's (or glibc's) a
 * thread held at the fork, the child, whose only thread is a copy of the
 * forking one, must be able to allocate and free, guarded or not, start
 * threads that do the same, and exit 0. Objects the parent allocated
 * before the fork are still good in the child. */
#define CHURNERS 2
#define FORKS    20

static volatile int stop;

static void *churner(void *arg)
{
	unsigned seed = (unsigned)(uintptr_t)arg * 2654435761u | 1;
	while (!stop)
		churn(&seed, 20);
	return NULL;
}

static void *child_thread(void *arg)
{
	unsigned seed = (unsigned)(uintptr_t)arg | 1;
	churn(&seed, 100);
	return NULL;
}

static int sampled;

static void child(int round, char *kept, size_t n)
{
	unsigned seed = (unsigned)round * 7919u | 1;
	CHECK(intact(kept, n, (unsigned)round));
	churn(&seed, 100);
	if (round % 3 == 0) {
		pthread_t t[2];
		for (long i = 0; i < 2; i++)
			CHECK(pthread_create(&t[i], NULL, child_thread, (void *)(i + round)) == 0);
		churn(&seed, 100);
		for (int i = 0; i < 2; i++)
			CHECK(pthread_join(t[i], NULL) == 0);
	}
	/* The parent's object, freed here, and a new one, guarded when
	 * every allocation is. */
	free(kept);
	char *p = malloc(64);
	CHECK(p);
	CHECK(guarded(p) || !sampled);
	fill(p, 64, 1);
	free(p);
	_exit(0);
}

int main(void)
{
	sampled = every_allocation_sampled();
	pthread_t t[CHURNERS];
	for (long i = 0; i < CHURNERS; i++)
		CHECK(pthread_create(&t[i], NULL, churner, (void *)(i + 1)) == 0);
	int bad = 0;
	for (int i = 0; i < FORKS; i++) {
		size_t n = 16 + (size_t)i % 500;
		char *kept = malloc(n);
		CHECK(kept);
		fill(kept, n, (unsigned)i);
		pid_t pid = fork();
		CHECK(pid >= 0);
		if (pid == 0)
			child(i, kept, n);
		int st;
		CHECK(waitpid(pid, &st, 0) == pid);
		if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
			fprintf(stderr, "child %d: status 0x%x\n", i, st);
			bad++;
		}
		CHECK(intact(kept, n, (unsigned)i));
		free(kept);
	}
	stop = 1;
	for (int i = 0; i < CHURNERS; i++)
		pthread_join(t[i], NULL);
	CHECK(bad == 0);
	printf("fork: %d children, all exited 0\n", FORKS);
	return 0;
}
