/* Helpers for the tests of programs linked with another allocator
 * (jemalloc, tcmalloc, mimalloc): the malloc family goes to ukasan, which
 * must hand what it does not guard to that allocator, never to glibc, and
 * whatever entry point of that allocator a pointer reaches must work. Each
 * step is printed before it runs, so a crash names it. */
#ifndef OTHER_MALLOC_H
#define OTHER_MALLOC_H

#include <malloc.h>

#include "_alloc_test.h"

static inline void step(const char *what)
{
	printf("step: %s\n", what);
	fflush(stdout);
}

/* The aligned and zeroing members of the family, one by i % 5, each checked
 * for what it promises. memalign_align: the largest alignment the
 * allocator under test honours there. */
static inline void *family_alloc(int i, size_t m, size_t memalign_align)
{
	void *p = NULL;
	switch (i % 5) {
	case 0:
		p = calloc(m, 1);
		CHECK(p);
		for (size_t k = 0; k < m; k++)
			CHECK(((const char *)p)[k] == 0);
		break;
	case 1:
		CHECK(posix_memalign(&p, 32, m) == 0);
		CHECK((uintptr_t)p % 32 == 0);
		break;
	case 2:
		p = aligned_alloc(128, m);
		CHECK(p && (uintptr_t)p % 128 == 0);
		break;
	case 3:
		p = memalign(memalign_align, m);
		CHECK(p && (uintptr_t)p % memalign_align == 0);
		break;
	case 4:
		p = valloc(m);
		CHECK(p && (uintptr_t)p % 4096 == 0);
		break;
	}
	return p;
}

#endif
