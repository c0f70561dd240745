/* ASan's fill of new objects (malloc_fill_byte, max_malloc_fill_size),
 * checked by the program itself for the byte and limit the test file
 * names: every entry point that does not promise zeros fills the first
 * bytes, calloc's objects stay zero, and realloc's new object is filled
 * before the old bytes are copied in, so only its new tail shows the byte.
 * Prints "NAME: ok" or "NAME: WRONG ..." lines. */
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The compiler must not know p is fresh: a load of memory it knows was
 * never written may be folded to anything. */
#define FRESH(p) __asm__ volatile("" : "+r"(p) : : "memory")

static int all_are(const unsigned char *p, size_t from, size_t to, int byte)
{
	for (size_t i = from; i < to; i++)
		if (p[i] != byte) {
			printf("  byte %zu is %#x, not %#x\n", i, p[i], byte);
			return 0;
		}
	return 1;
}

static void say(const char *what, int ok)
{
	printf("%s: %s\n", what, ok ? "ok" : "WRONG");
}

static size_t min_size(size_t a, size_t b)
{
	return a < b ? a : b;
}

/* Each object's filled prefix is [0, min(size, limit)). */
static void fill_checks(int byte, size_t limit)
{
	unsigned char *p = malloc(40);
	FRESH(p);
	say("malloc", all_are(p, 0, min_size(40, limit), byte));

	unsigned char *big = malloc(10000); /* a large object: only the limit */
	FRESH(big);
	say("large malloc", all_are(big, 0, min_size(10000, limit), byte));

	unsigned char *a = aligned_alloc(64, 128);
	FRESH(a);
	say("aligned_alloc", all_are(a, 0, min_size(128, limit), byte));

	void *m = NULL;
	if (posix_memalign(&m, 256, 300) != 0)
		m = NULL;
	unsigned char *pm = m;
	FRESH(pm);
	say("posix_memalign", pm && all_are(pm, 0, min_size(300, limit), byte));

	unsigned char *z = calloc(10, 30);
	FRESH(z);
	say("calloc", all_are(z, 0, 300, 0));

	/* realloc: the old bytes, then the fill up to the limit. */
	unsigned char *r = malloc(24);
	memset(r, 'a', 24);
	r = realloc(r, 64);
	FRESH(r);
	say("realloc kept", all_are(r, 0, 24, 'a'));
	say("realloc tail", limit <= 24 || all_are(r, 24, min_size(64, limit), byte));

	free(p);
	free(big);
	free(a);
	free(pm);
	free(z);
	free(r);
}
