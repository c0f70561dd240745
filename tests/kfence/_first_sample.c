/* For check_first_sample.py. Without arguments: makes 1,000 allocations
 * (kept alive, so each is a distinct object), then prints the index of
 * the one KFENCE guarded (-1 for none), the number guarded, and how long
 * the allocations took in microseconds. With "long MS": allocates and
 * frees for MS milliseconds and prints how many it made. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ukasan.h"

#define N 1000

static double now_us(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1e6 + ts.tv_nsec / 1e3;
}

int main(int argc, char **argv)
{
	if (argc > 2 && !strcmp(argv[1], "long")) {
		double end = now_us() + atof(argv[2]) * 1000;
		long n = 0;
		while (now_us() < end)
			for (int i = 0; i < 100; i++, n++) {
				void *volatile q = malloc(32 + i);
				free(q);
			}
		printf("%ld\n", n);
		return 0;
	}
	static void *p[N];
	int first = -1, guarded = 0;
	double t0 = now_us();
	for (int i = 0; i < N; i++)
		p[i] = malloc(16 + i % 300);
	double took = now_us() - t0;
	for (int i = 0; i < N; i++)
		if (ukasan_is_kfence_address && ukasan_is_kfence_address(p[i])) {
			guarded++;
			if (first < 0)
				first = i;
		}
	for (int i = 0; i < N; i++)
		free(p[i]);
	printf("%d %d %.0f\n", first, guarded, took);
	return 0;
}
