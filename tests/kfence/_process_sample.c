/* For check_process_sample.sh: whether KFENCE guards this process's
 * allocations (kfence.sample_rate=1 guards every one where it is on),
 * then, with an argument N, the same answer from N children made by fork
 * (each allocating after the fork); with "exec N", from N children that
 * exec it (each decides again). */
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "ukasan.h"

static int guarded(void)
{
	void *p = malloc(32);
	int on = ukasan_is_kfence_address && ukasan_is_kfence_address(p);
	free(p);
	return on;
}

int main(int argc, char **argv)
{
	int me = guarded();
	printf("%d", me);
	if (argc > 2) { /* "exec N": N children that exec this program */
		int n = atoi(argv[2]);
		for (int i = 0; i < n; i++) {
			fflush(stdout);
			pid_t pid = fork();
			if (pid == 0) {
				printf(" exec=");
				fflush(stdout);
				execl("/proc/self/exe", argv[0], "0", (char *)NULL);
				_exit(1);
			}
			waitpid(pid, NULL, 0);
		}
		printf("\n");
		return 0;
	}
	int children = argc > 1 ? atoi(argv[1]) : 0;
	for (int i = 0; i < children; i++) {
		fflush(stdout);
		pid_t pid = fork();
		if (pid == 0) {
			printf(" child=%d", guarded());
			fflush(stdout);
			_exit(0);
		}
		waitpid(pid, NULL, 0);
	}
	if (children)
		printf("\n");
	return 0;
}
