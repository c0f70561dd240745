/* Runs one program and reports its wall time, CPU time and peak RSS.
 *
 *   spawn RESULT [NAME=VALUE]... -- PROGRAM [ARG]...
 *
 * The benchmark runner starts programs through this small process rather
 * than directly: Linux counts the memory of the process that calls exec
 * into the new program's ru_maxrss, and the Python runner is large. The
 * NAME=VALUE settings are made in the child only, so that LD_PRELOAD
 * applies to the program and not to this launcher. RESULT gets one line:
 * "WALL_S CPU_S MAXRSS_KB STATUS", STATUS being the exit code, or minus
 * the signal number that ended the program. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double seconds(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
	int prog = 2;
	while (prog < argc && strcmp(argv[prog], "--"))
		prog++;
	if (argc < 3 || prog + 1 >= argc) {
		fprintf(stderr, "usage: spawn RESULT [NAME=VALUE]... -- PROGRAM [ARG]...\n");
		return 2;
	}
	double start = now();
	pid_t pid = fork();
	if (pid < 0) {
		perror("spawn: fork");
		return 2;
	}
	if (pid == 0) {
		for (int i = 2; i < prog; i++)
			putenv(argv[i]);
		execvp(argv[prog + 1], argv + prog + 1);
		perror(argv[prog + 1]);
		_exit(127);
	}
	int status;
	struct rusage ru;
	if (wait4(pid, &status, 0, &ru) < 0) {
		perror("spawn: wait4");
		return 2;
	}
	double wall = now() - start;
	FILE *f = fopen(argv[1], "w");
	if (!f) {
		perror(argv[1]);
		return 2;
	}
	fprintf(f, "%.6f %.6f %ld %d\n", wall, seconds(ru.ru_utime) + seconds(ru.ru_stime),
		ru.ru_maxrss, WIFEXITED(status) ? WEXITSTATUS(status) : -WTERMSIG(status));
	return fclose(f) ? 2 : 0;
}
