// Under the preload with kmemleak=on, every allocation entry point is
// tracked: a leak through calloc, posix_memalign, aligned_alloc, memalign,
// valloc and strdup (glibc's own call to malloc) is reported with the
// function that leaked it, and what those entry points allocate and free
// again is no leak.
// RUN: kmemleak=on
// RUN-ALSO: kmemleak=on kfence.sample_interval=0
// CFLAGS: -O1
// STATUS: 1
// COUNT: 6 unreferenced object 0x
// EXPECT-RE: \] lose_calloc\+0x
// EXPECT-RE: \] lose_posix_memalign\+0x
// EXPECT-RE: \] lose_aligned_alloc\+0x
// EXPECT-RE: \] lose_memalign\+0x
// EXPECT-RE: \] lose_valloc\+0x
// EXPECT-RE: \] lose_strdup\+0x
// EXPECT: ukasan: kmemleak: 6 new suspected memory leaks
#define _GNU_SOURCE
#include <malloc.h>
#include <stdlib.h>
#include <string.h>

#include "leak_test.h"

/* Each in its own size, so that the report's order (largest first) is the
 * order of the EXPECT lines above. */
LEAK_TEST void lose_calloc(void)
{
	void *p = calloc(1, 9000);
	HIDE(p);
}

LEAK_TEST void lose_posix_memalign(void)
{
	void *p;
	if (posix_memalign(&p, 64, 8000))
		abort();
	HIDE(p);
}

LEAK_TEST void lose_aligned_alloc(void)
{
	void *p = aligned_alloc(128, 7000);
	HIDE(p);
}

LEAK_TEST void lose_memalign(void)
{
	void *p = memalign(256, 6000);
	HIDE(p);
}

LEAK_TEST void lose_valloc(void)
{
	void *p = valloc(5000);
	HIDE(p);
}

LEAK_TEST void lose_strdup(void)
{
	char *p = strdup("a string that leaks");
	HIDE(p);
}

LEAK_TEST void freed(void)
{
	void *p;
	free(calloc(3, 100));
	if (!posix_memalign(&p, 64, 100))
		free(p);
	free(aligned_alloc(64, 128));
	free(memalign(64, 100));
	free(valloc(100));
	free(pvalloc(100));
	free(strdup("freed"));
	free(realloc(malloc(10), 1000));
}

int main(void)
{
	run_deep(freed);
	run_deep(lose_calloc);
	run_deep(lose_posix_memalign);
	run_deep(lose_aligned_alloc);
	run_deep(lose_memalign);
	run_deep(lose_valloc);
	run_deep(lose_strdup);
	clear_stack();
	return 0;
}
