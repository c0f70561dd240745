/* The pointer comparisons and subtractions of pointer_pairs*.c, built with
 * -fsanitize=pointer-compare,pointer-subtract: each in a function of its
 * own, named in the report's title. */
#include "kasan_test.h"

#include <sys/mman.h>

static char global_a[16], global_b[16];
static volatile long pair_result;

static int expecting;

static void expect_pair(const char *fn, const void *a, const void *b)
{
	if (!expecting)
		return;
	printf("EXPECT: BUG: KASAN: invalid-pointer-pair in %s+0x\n", fn);
	printf("EXPECT: Pointers %016lx and %016lx into different objects, by task ",
	       (unsigned long)a, (unsigned long)b);
	printf("\n");
	fflush(stdout);
}

KASAN_TEST void pair_heap_cmp(char *a, char *b)
{
	expect_pair("pair_heap_cmp", a, b);
	pair_result = a < b;
}

KASAN_TEST void pair_heap_sub(char *a, char *b)
{
	expect_pair("pair_heap_sub", a, b);
	pair_result = a - b;
}

KASAN_TEST void pair_global_cmp(char *a, char *b)
{
	expect_pair("pair_global_cmp", a, b);
	pair_result = a > b;
}

KASAN_TEST void pair_heap_global(char *a, char *b)
{
	expect_pair("pair_heap_global", a, b);
	pair_result = a <= b;
}

/* A variable of the caller's frame against one of this frame's. */
KASAN_TEST void pair_stack_frames(char *outer)
{
	char inner[16];
	char *i = inner;
	OPTIMIZER_HIDE_VAR(i);
	expect_pair("pair_stack_frames", outer, i);
	pair_result = outer - i;
	KASAN_BARRIER();
}

static void pointer_pairs_bad(void)
{
	char *a = malloc(16), *b = malloc(16), *g1 = global_a, *g2 = global_b;
	char frame[16], *f = frame;
	OPTIMIZER_HIDE_VAR(a);
	OPTIMIZER_HIDE_VAR(b);
	OPTIMIZER_HIDE_VAR(g1);
	OPTIMIZER_HIDE_VAR(g2);
	OPTIMIZER_HIDE_VAR(f);
	pair_heap_cmp(a, b);
	pair_heap_sub(b, a);
	pair_global_cmp(g1, g2);
	pair_heap_global(a, g1);
	pair_stack_frames(f);
	free(a);
	free(b);
}

/* Pairs in one object, one past its end included; NULL at level 1; memory
 * ukasan knows nothing of. */
KASAN_TEST void pointer_pairs_good(void)
{
	char *a = malloc(4096), *g = global_a, local[64], *l = local;
	char *m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	char *null = NULL;
	OPTIMIZER_HIDE_VAR(a);
	OPTIMIZER_HIDE_VAR(g);
	OPTIMIZER_HIDE_VAR(l);
	OPTIMIZER_HIDE_VAR(m);
	OPTIMIZER_HIDE_VAR(null);
	pair_result = a < a + 5;
	pair_result = (a + 4096) - a;
	pair_result = a + 3000 > a + 10;
	pair_result = g + 16 - g;
	pair_result = l < l + 63;
	pair_result = l + 64 - l;
	pair_result = m + 100 > m;
	pair_result = a < m;
	pair_result = null < a;
	munmap(m, 4096);
	free(a);
}
