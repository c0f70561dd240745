// PRELOAD-BEFORE: libmimalloc.so.2
// RUN: kfence.sample_rate=1
// EXPECT-RE: ^ukasan: (?=[^\n]*libmimalloc\.so\.2)(?=[^\n]*libukasan\.so)[^\n]*first
// COUNT: 1 ukasan:
// STDOUT: child ok
// STDOUT: thread ok
// STDOUT: done
#include <pthread.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "kfence_test.h"

/* LD_PRELOAD="libmimalloc.so.2 libukasan.so": mimalloc's malloc comes
 * first, so ukasan never sees an allocation and guards nothing. It must
 * say so, once, on one line naming the allocator and telling to put
 * libukasan.so first; and the program runs on as it would without ukasan.
 * Threads and a child of fork do not repeat the line. */
static void *worker(void *arg)
{
	(void)arg;
	for (int i = 0; i < 1000; i++) {
		char *p = malloc(64);
		memset(p, 1, 64);
		free(p);
	}
	return NULL;
}

int main(void)
{
	int unguarded = 0;
	for (int i = 0; i < 100; i++) {
		char *p = malloc(32);
		if (!p)
			return 90;
		memset(p, 2, 32);
		unguarded += !ukasan_is_kfence_address || !ukasan_is_kfence_address(p);
		p = realloc(p, 64);
		if (!p || p[31] != 2)
			return 91;
		free(p);
	}
	/* Not a requirement of ukasan's, a fact of the order: nothing it
	 * could guard ever reached it. */
	if (unguarded != 100)
		return 92;
	pthread_t t;
	pthread_create(&t, NULL, worker, NULL);
	pthread_join(t, NULL);
	printf("thread ok\n");
	fflush(stdout);
	pid_t pid = fork();
	if (pid == 0) {
		worker(NULL);
		printf("child ok\n");
		fflush(stdout);
		_exit(0);
	}
	int st;
	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st) || WEXITSTATUS(st))
		return 93;
	printf("done\n");
	return 0;
}
