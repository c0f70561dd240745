/* Helpers for the tests of programs linked with another allocator
 * (jemalloc, tcmalloc, mimalloc): the malloc family goes to ukasan, which
 * must hand what it does not guard to that allocator, never to glibc, and
 * whatever entry point of that allocator a pointer reaches must work. Each
 * step is printed before it runs, so a crash names it. */
#ifndef OTHER_MALLOC_H
#define OTHER_MALLOC_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ukasan.h"

#define CHECK(cond)                                                                                \
	do {                                                                                       \
		if (!(cond)) {                                                                     \
			printf("FAILED at line %d: %s\n", __LINE__, #cond);                        \
			fflush(stdout);                                                            \
			exit(1);                                                                   \
		}                                                                                  \
	} while (0)

static inline void step(const char *what)
{
	printf("step: %s\n", what);
	fflush(stdout);
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

#endif
