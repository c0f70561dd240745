// MODE: generic
// VARIANTS: gcc clang
// Freed large objects' pages and shadow stay warm for the next ones
// (issue 25): objects of 1 to 64 pages come and go, every page written, as
// programs use what they allocate. Once the quarantine and the pool of
// free extents have filled (the first pass), a second pass of the same
// work must not fault memory in again, not even one page per object:
// before, cutting fresh space for sizes no freed extent fitted, and
// purging every freed extent at once, faulted in about a tenth of the
// pages written (2.5 per object). A use after free of an object reused so
// is still caught (large_uaf_waiting.c and the other large tests).
// NOT: BUG: KASAN
// STDOUT: warm reuse: ok
#include "kasan_test.h"

#include <stdio.h>
#include <sys/resource.h>

enum { ROUNDS = 3000, MAX_PAGES = 64 };

static unsigned long rng = 88172645463325252ul;

static size_t pick(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return 1 + rng % MAX_PAGES;
}

static long faults(void)
{
	struct rusage ru;
	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_minflt;
}

static long pass(long *written)
{
	long before = faults();
	*written = 0;
	for (int i = 0; i < ROUNDS; i++) {
		size_t pages = pick();
		char *p = malloc(pages * 4096);
		OPTIMIZER_HIDE_VAR(p);
		for (size_t k = 0; k < pages; k++)
			p[k * 4096] = (char)k;
		*written += (long)pages;
		free(p);
	}
	return faults() - before;
}

int main(void)
{
	long written;
	pass(&written); /* fills the quarantine and the free extents */
	long f = pass(&written);
	printf("second pass: %ld pages written, %ld page faults\n", written, f);
	if (f >= ROUNDS)
		kasan_test_fail("freed large objects' memory was faulted in again");
	else
		printf("warm reuse: ok\n");
	return 0;
}
