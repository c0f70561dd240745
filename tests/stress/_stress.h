/* Helpers for the stress tests: each runs a fixed amount of work (so a run
 * takes the same time each time, and a hang is a hang), checks every byte
 * it wrote, and ends with one fixed line on stdout. */
#ifndef STRESS_H
#define STRESS_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ukasan.h"

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			char msg_[160];                                                            \
			int n_ = snprintf(msg_, sizeof(msg_), "FAILED at %s:%d: %s\n", __FILE__,   \
			                  __LINE__, #cond);                                        \
			if (write(1, msg_, (size_t)n_) < 0) {                                      \
			}                                                                          \
			_exit(1);                                                                  \
		}                                                                                  \
	} while (0)

static inline void fill(void *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		((unsigned char *)p)[i] = (unsigned char)(seed + i * 131);
}

static inline int intact(const void *p, size_t n, unsigned seed)
{
	for (size_t i = 0; i < n; i++)
		if (((const unsigned char *)p)[i] != (unsigned char)(seed + i * 131))
			return 0;
	return 1;
}

static inline int guarded(const void *p)
{
	return ukasan_is_kfence_address && ukasan_is_kfence_address(p);
}

/* Whether UKASAN_OPTIONS has kfence.sample_rate=1: then small allocations
 * are guarded while the pool has slots. */
static inline int every_allocation_sampled(void)
{
	const char *o = getenv("UKASAN_OPTIONS");
	const char *s = o ? strstr(o, "kfence.sample_rate=") : NULL;
	return s && strtoul(s + strlen("kfence.sample_rate="), NULL, 10) == 1;
}

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
