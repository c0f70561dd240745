/* Runs a program N times in a row and reports the time and memory its runs
 * took, from wait4(2)'s rusage of each run.
 *
 *   launch RESULT N PROGRAM [ARG]...
 *
 * RESULT gets one line: "WALL_S CPU_S MAXRSS_KB SYS_S", the wall and CPU
 * (user + sys) time summed over the N runs, the largest peak RSS of any
 * run, and the system part of the CPU time (page faults and the system
 * calls that give memory back show there). The runs inherit stdin, stdout, stderr and the environment. Exit
 * status 0 when every run exited 0; otherwise the first bad status is
 * printed on stderr and the launcher exits 1.
 *
 * Why not os.wait4 in the Python runner: exec(2) folds the high-water RSS
 * of the address space it replaces into the new program's ru_maxrss, and
 * with posix_spawn/fork from Python that address space is Python's. Here it
 * is this small launcher's, well under a megabyte. */
#define _GNU_SOURCE
#include <errno.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>

extern char **environ;

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
	if (argc < 4 || atoi(argv[2]) < 1) {
		fprintf(stderr, "usage: launch RESULT N PROGRAM [ARG]...\n");
		return 2;
	}
	int n = atoi(argv[2]);
	double wall = 0, cpu = 0, sys = 0;
	long maxrss = 0;
	for (int i = 0; i < n; i++) {
		pid_t pid;
		double start = now();
		int err = posix_spawn(&pid, argv[3], NULL, NULL, argv + 3, environ);
		if (err) {
			fprintf(stderr, "launch: %s: %s\n", argv[3], strerror(err));
			return 1;
		}
		int status;
		struct rusage ru;
		while (wait4(pid, &status, 0, &ru) < 0) {
			if (errno != EINTR) {
				perror("launch: wait4");
				return 1;
			}
		}
		wall += now() - start;
		cpu += seconds(ru.ru_utime) + seconds(ru.ru_stime);
		sys += seconds(ru.ru_stime);
		if (ru.ru_maxrss > maxrss)
			maxrss = ru.ru_maxrss;
		if (!WIFEXITED(status) || WEXITSTATUS(status)) {
			if (WIFSIGNALED(status))
				fprintf(stderr, "launch: %s: run %d killed by signal %d\n", argv[3],
					i + 1, WTERMSIG(status));
			else
				fprintf(stderr, "launch: %s: run %d exited with status %d\n", argv[3],
					i + 1, WEXITSTATUS(status));
			return 1;
		}
	}
	FILE *f = fopen(argv[1], "w");
	if (!f) {
		perror(argv[1]);
		return 1;
	}
	fprintf(f, "%.6f %.6f %ld %.6f\n", wall, cpu, maxrss, sys);
	return fclose(f) ? 1 : 0;
}
