/* One bug per run, chosen by argv[1], for the JSON report tests
 * (check_json.py): every kind of report generic KASAN prints. Built with
 * ukasan-cc, -fsanitize=pointer-compare and, by clang, array-bounds. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define NOINLINE __attribute__((noinline))

static volatile int sink;
static volatile size_t big = (size_t)-1 / 2;
static void *volatile kept;
char global_buf[10];

NOINLINE void heap_write(char *p, int i)
{
	p[i] = 1;
}

/* Two bugs of one kind in one function: their signatures must differ.
 * Accesses of two sizes, as clang merges the report calls of two alike
 * into one call site, and then nothing but the address tells them apart. */
NOINLINE void two_bugs(char *p, int which)
{
	if (which == 1)
		p[16] = 1;
	else
		*(volatile short *)(p + 16) = 2;
}

NOINLINE int heap_read(char *p, int i)
{
	return p[i];
}

NOINLINE int stack_oob(int i)
{
	volatile char local[8];
	local[0] = 0;
	return local[i];
}

NOINLINE int global_oob(int i)
{
	return global_buf[i];
}

NOINLINE void overlap(char *p, int n)
{
	memcpy(p, p + 2, 8 + (size_t)n);
}

NOINLINE int pointer_pair(char *a, char *b)
{
	return a < b;
}

NOINLINE int oops(int *p)
{
	return *p;
}

NOINLINE int index_oob(int i)
{
	int a[4] = {0};
	return a[i];
}

NOINLINE void *leak(void)
{
	char *r = malloc(24);
	r[0] = 1; /* not a tail call: leak stays on the allocation stack */
	return r;
}

int main(int argc, char **argv)
{
	const char *bug = argc > 1 ? argv[1] : "";
	int n = argc > 2 ? atoi(argv[2]) : 0; /* an index the compiler cannot see */
	char *p = malloc(16), *q = malloc(16);
	if (!strcmp(bug, "heap-oob"))
		heap_write(p, 16 + n);
	else if (!strcmp(bug, "heap-oob-read"))
		sink = heap_read(p, 16 + n);
	else if (!strcmp(bug, "two-bugs-1"))
		two_bugs(p, 1);
	else if (!strcmp(bug, "two-bugs-2"))
		two_bugs(p, 2);
	else if (!strcmp(bug, "uaf")) {
		free(q);
		sink = heap_read(q, n);
	} else if (!strcmp(bug, "double-free")) {
		free(q);
		free(q);
	} else if (!strcmp(bug, "invalid-free"))
		free(p + 1);
	else if (!strcmp(bug, "stack-oob"))
		sink = stack_oob(8 + n);
	else if (!strcmp(bug, "global-oob"))
		sink = global_oob(10 + n);
	else if (!strcmp(bug, "overlap"))
		overlap(p, n);
	else if (!strcmp(bug, "pointer-pair"))
		sink = pointer_pair(p, q);
	else if (!strcmp(bug, "alloc"))
		kept = calloc(big + (size_t)n, 4);
	else if (!strcmp(bug, "oops"))
		sink = oops((int *)(uintptr_t)(0x10000 + n));
	else if (!strcmp(bug, "index"))
		sink = index_oob(4 + n);
	else if (!strcmp(bug, "leak"))
		leak();
	free(p);
	free(q);
	return 0;
}
