/* One planted bug per argument, three levels deep (bug_*, level2, level1,
 * main), for the tests that give ukasan's reports to the tools that read
 * them (check_clusterfuzz.py): built with ukasan-cc, run under the preload
 * with KFENCE, and built with clang's AddressSanitizer for comparison. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

static char global_buf[16];
char *volatile sink;
volatile int zero;

/* KFENCE places an object at its page's start or end, at random: the
 * access goes past whichever side has the guard page (an object of 32
 * bytes ends at its page's end when placed there). */
static NOINLINE char *past(char *p, size_t size)
{
	return ((uintptr_t)p & 4095) ? p + size + zero : p - 1 + zero;
}

NOINLINE void bug_heap_oob(void)
{
	char *p = malloc(32);
	sink = past(p, 32);
	*sink = 1;
	free(p);
}

NOINLINE void bug_stack_oob(void)
{
	char buf[16];
	sink = buf;
	sink[16 + zero] = 1;
}

NOINLINE void bug_global_oob(void)
{
	sink = global_buf;
	sink[16 + zero] = 1;
}

NOINLINE void bug_uaf(void)
{
	char *p = malloc(24);
	sink = p;
	free(p);
	sink[3 + zero] = 1;
}

NOINLINE void bug_double_free(void)
{
	char *p = malloc(24);
	sink = p;
	free(p);
	free(sink);
}

NOINLINE void bug_invalid_free(void)
{
	char *p = malloc(24);
	sink = p + 8;
	free(sink);
	free(p);
}

NOINLINE void bug_overlap(void)
{
	char *p = malloc(32);
	sink = p;
	memcpy(sink + 4, sink, 16 + zero);
	free(p);
}

NOINLINE void bug_alloc_too_big(void)
{
	size_t huge = (size_t)-1 / 2 + zero;
	sink = malloc(huge);
}

NOINLINE void bug_wild_read(void)
{
	sink = (char *)0x10000 + zero;
	zero = sink[0];
}

NOINLINE void bug_recurse(int n)
{
	char buf[256];
	sink = buf;
	if (n)
		bug_recurse(n - 1 + zero);
	sink[0] = 0;
}

NOINLINE void bug_stack_overflow(void)
{
	bug_recurse(1 << 30);
}

/* KFENCE under the preload: the program is not instrumented, so the
 * canary after the object (on either placement) is found overwritten at
 * free. */
NOINLINE void bug_corruption(void)
{
	char *p = malloc(24);
	sink = p;
	sink[24 + zero] = 1;
	free(p);
}

NOINLINE void bug_oob_read(void)
{
	char *p = malloc(32);
	sink = past(p, 32);
	zero = *sink;
	free(p);
}

NOINLINE void bug_uaf_read(void)
{
	char *p = malloc(24);
	sink = p;
	free(p);
	zero = sink[3];
}

/* Past the array but inside the struct: UBSAN's bounds check alone sees it. */
NOINLINE void bug_array_index(void)
{
	struct {
		int a[4];
		int after;
	} s;
	int i = 4 + zero;
	s.a[i] = 1;
	sink = (char *)&s;
}

void *volatile kept;

NOINLINE void bug_leak(void)
{
	kept = malloc(40);
	strcpy(kept, "lost");
	kept = 0;
}

static const struct {
	const char *name;
	void (*fn)(void);
} bugs[] = {
    {"heap_oob", bug_heap_oob},       {"stack_oob", bug_stack_oob},
    {"global_oob", bug_global_oob},   {"uaf", bug_uaf},
    {"double_free", bug_double_free}, {"invalid_free", bug_invalid_free},
    {"overlap", bug_overlap},         {"alloc_too_big", bug_alloc_too_big},
    {"wild_read", bug_wild_read},     {"stack_overflow", bug_stack_overflow},
    {"corruption", bug_corruption},   {"oob_read", bug_oob_read},
    {"uaf_read", bug_uaf_read},       {"array_index", bug_array_index},
    {"leak", bug_leak},
};

NOINLINE void level2(void (*fn)(void))
{
	fn();
	sink = 0;
}

NOINLINE void level1(void (*fn)(void))
{
	level2(fn);
	sink = 0;
}

int main(int argc, char **argv)
{
	for (size_t i = 0; argc > 1 && i < sizeof(bugs) / sizeof(bugs[0]); i++)
		if (!strcmp(argv[1], bugs[i].name)) {
			level1(bugs[i].fn);
			return 0;
		}
	fprintf(stderr, "usage: %s BUG\n", argv[0]);
	return 2;
}
