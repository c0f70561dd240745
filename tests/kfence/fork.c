// RUN: kfence.sample_rate=1
// EXPECT: BUG: KFENCE: out-of-bounds write in child_bug+0x
// COUNT: 1 BUG: KFENCE:
// STDOUT: parent done
#include <pthread.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kfence_test.h"

static volatile int stop;

static void *churn(void *arg)
{
	(void)arg;
	while (!stop) {
		void *p = malloc(64);
		free(p);
	}
	return NULL;
}

__attribute__((noinline)) static void child_bug(char *p) { p[32] = 1; }

int main(void)
{
	/* fork() while other threads allocate from the pool: the child must
	 * not inherit a held pool lock. */
	pthread_t t[2];
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, churn, NULL);
	for (int i = 0; i < 100; i++) {
		pid_t pid = fork();
		if (pid == 0) {
			void *p = malloc(64);
			free(p);
			_exit(0);
		}
		int st;
		waitpid(pid, &st, 0);
		if (!WIFEXITED(st) || WEXITSTATUS(st))
			return 86;
	}
	stop = 1;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	/* An object inherited from the parent is still guarded in the child,
	 * and the report names the child. */
	char *p = test_alloc(32, RIGHT);
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		expect("Out-of-bounds write at %p (32B right of kfence-#", (void *)(p + 32));
		expect("PID: %d Comm:", (int)getpid());
		child_bug(p);
		_exit(0);
	}
	int st;
	waitpid(pid, &st, 0);
	free(p);
	printf("parent done\n");
	return WIFEXITED(st) && WEXITSTATUS(st) == 0 ? 0 : 85;
}
