/* Helpers shared by the tests that churn allocations (tests/stress/, and
 * the tests of programs linked with another allocator): a failed CHECK
 * prints where with write(2) and ends the process at once, so it is usable
 * in signal handlers; data is written in a pattern each object's seed
 * decides, so a byte changed under its owner is found. */
#ifndef ALLOC_TEST_H
#define ALLOC_TEST_H

#include <pthread.h>
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

/* Whether thread t's stack, as pthread_getattr_np tells it, holds p: what
 * Rust's runtime and the JVM ask, from the thread itself or another. */
static inline int stack_holds(pthread_t t, const void *p)
{
	pthread_attr_t attr;
	void *addr;
	size_t size;
	if (pthread_getattr_np(t, &attr) != 0)
		return 0;
	int ok = pthread_attr_getstack(&attr, &addr, &size) == 0 &&
	         (uintptr_t)p >= (uintptr_t)addr && (uintptr_t)p < (uintptr_t)addr + size;
	pthread_attr_destroy(&attr);
	return ok;
}

#endif
