/* Helpers for the stress tests: each runs a fixed amount of work (so a run
 * takes the same time each time, and a hang is a hang), checks every byte
 * it wrote, and ends with one fixed line on stdout. */
#ifndef STRESS_H
#define STRESS_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include "_alloc_test.h"

/* A cheap per-thread generator, usable in signal handlers. */
static inline unsigned next_rand(unsigned *s)
{
	*s ^= *s << 13;
	*s ^= *s >> 17;
	*s ^= *s << 5;
	return *s;
}

/* Some allocations of every kind, each written, checked and freed. */
static inline void churn(unsigned *seed, int rounds)
{
	for (int i = 0; i < rounds; i++) {
		size_t n = 1 + next_rand(seed) % 600;
		unsigned s = next_rand(seed);
		char *p;
		switch (next_rand(seed) % 4) {
		case 0:
			p = malloc(n);
			break;
		case 1:
			p = calloc(1, n);
			CHECK(!p || p[n - 1] == 0);
			break;
		case 2:
			p = realloc(NULL, n);
			break;
		default:
			p = aligned_alloc(64, (n + 63) & ~(size_t)63);
			break;
		}
		CHECK(p);
		fill(p, n, s);
		char *q = realloc(p, n + 100);
		CHECK(q && intact(q, n, s));
		free(q);
	}
}

#endif
