/* The leak scan's cost: a heap of N small objects, all reachable, then one
 * leak check on demand, timed from inside.
 *
 *   heap N SIZE tree|array
 *
 * tree: object i (SIZE bytes, at least 16) holds pointers to objects 2i+1
 * and 2i+2, a complete binary tree reached from one global, so the scan
 * finds every object through another object, as in a program's data
 * structures. array: one malloc'd array of N pointers (8N bytes more), held
 * by a global, holds every object: the scan's work list takes all N at once
 * (its worst case for memory).
 * Prints one line:
 *
 *   scan_s CPU_S WALL_S hwm_kb BEFORE AFTER build_s B
 *
 * the scan's CPU time (user + sys of the process and of its waited-for
 * children, from getrusage, around the one call) and wall time, the peak RSS (VmHWM) before and after it,
 * and the time the heap took to build. Then it leaves with _exit, so that no
 * second scan runs at exit. Built with ukasan-cc (kmemleak) and with
 * -fsanitize=address (LeakSanitizer): both have
 * __lsan_do_recoverable_leak_check. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

int __lsan_do_recoverable_leak_check(void);

struct node {
	struct node *kid[2];
};

struct node *root;
struct node **all;

static double cpu_of(int who)
{
	struct rusage ru;
	getrusage(who, &ru);
	return (double)ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 + (double)ru.ru_stime.tv_sec +
	       ru.ru_stime.tv_usec / 1e6;
}

/* LeakSanitizer scans from a task it clones (no CLONE_THREAD) and waits
 * for: its time is the children's. */
static double cpu_now(void)
{
	return cpu_of(RUSAGE_SELF) + cpu_of(RUSAGE_CHILDREN);
}

static double wall_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

static long hwm_kb(void)
{
	char buf[4096];
	FILE *f = fopen("/proc/self/status", "r");
	long kb = -1;
	if (!f)
		return -1;
	while (fgets(buf, sizeof(buf), f))
		if (!strncmp(buf, "VmHWM:", 6))
			kb = atol(buf + 6);
	fclose(f);
	return kb;
}

int main(int argc, char **argv)
{
	if (argc != 4 || (strcmp(argv[3], "tree") && strcmp(argv[3], "array"))) {
		fprintf(stderr, "usage: heap N SIZE tree|array\n");
		return 2;
	}
	int tree = !strcmp(argv[3], "tree");
	long n = atol(argv[1]);
	size_t size = (size_t)atol(argv[2]);
	if (n < 1 || size < sizeof(struct node)) {
		fprintf(stderr, "heap: N >= 1, SIZE >= %zu\n", sizeof(struct node));
		return 2;
	}
	double b0 = wall_now();
	/* Built from the leaves up: each object's children exist before it. A
	 * window of the last level's pointers is kept in a malloc'd array that
	 * is freed at the end, so that only the tree holds the objects. */
	struct node **level = malloc(sizeof(*level) * (size_t)n);
	if (!level)
		return 3;
	for (long i = n - 1; i >= 0; i--) {
		struct node *x = malloc(size);
		if (!x)
			return 3;
		memset(x, 0, size);
		for (int k = 0; k < 2; k++) {
			long c = 2 * i + 1 + k;
			x->kid[k] = c < n ? level[c] : NULL;
		}
		level[i] = x;
	}
	if (tree) {
		root = level[0];
		free(level);
	} else {
		for (long i = 0; i < n; i++)
			level[i]->kid[0] = level[i]->kid[1] = NULL;
		all = level;
	}
	double build = wall_now() - b0;
	long before = hwm_kb();
	double c0 = cpu_now(), w0 = wall_now();
	int leaks = __lsan_do_recoverable_leak_check();
	double cpu = cpu_now() - c0, wall = wall_now() - w0;
	long after = hwm_kb();
	printf("scan_s %.3f %.3f hwm_kb %ld %ld build_s %.2f leaks %d\n", cpu, wall, before, after,
	       build, leaks);
	fflush(stdout);
	_exit(0);
}
