// MODE: generic
// VARIANTS: gcc clang
// RUN: kasan.stats=1
// Seed 001's measure, memory in proportion to use. An allocation-heavy
// phase: 1500 objects from 16 bytes to 1 MiB, every byte written, 260 MiB
// in all. Half as many are live at exit, and kasan.stats then shows
// resident shadow of at most an eighth of the memory it tracks (the 1/N on
// its line). Each phase frees everything and ukasan_purge() empties the
// quarantine:
// RSS comes back to within 10% of where it was before (after a first
// phase that touches, once, the code and the tables that stay). No report:
// every access is in bounds, and the reused memory's shadow must read
// 00 again however it was given back.
// EXPECT: ukasan: kasan statistics of pid
// EXPECT-RE: ^KasanShadow \(resident\): +\d+ kB \(1/([89]|\d\d+) of tracked memory\)$
// STDOUT: rss returned
// NOT: BUG: KASAN
#include "kasan_test.h"

#include <stdio.h>
#include <string.h>
#include <ukasan.h>

#define N 1500

static char *objs[N];

static long rss_kb(void)
{
	long size = 0, resident = 0;
	FILE *f = fopen("/proc/self/statm", "r");
	if (!f || fscanf(f, "%ld %ld", &size, &resident) != 2)
		kasan_test_fail("statm");
	fclose(f);
	return resident * 4;
}

static size_t size_of(int i)
{
	static const size_t sizes[] = {16, 200, 3000, 4096, 20000, 70000, 300000, 1 << 20};
	return sizes[i % 8] + (size_t)(i * 37 % 64);
}

static long phase(void)
{
	long before = rss_kb();
	for (int i = 0; i < N; i++) {
		objs[i] = malloc(size_of(i));
		memset(objs[i], i, size_of(i));
	}
	long peak = rss_kb();
	for (int i = 0; i < N; i++)
		free(objs[i]);
	ukasan_purge();
	long after = rss_kb();
	printf("rss before %ld kB, peak %ld kB, after %ld kB\n", before, peak, after);
	return after - before;
}

int main(void)
{
	phase(); /* the first time sets up what lasts: regions, stack depot */
	long before = rss_kb();
	long grew = phase();
	if (grew > before / 10)
		kasan_test_fail("RSS did not return");
	else
		printf("rss returned\n");
	for (int i = 0; i < N; i += 2) /* live at exit, for the statistics */
		objs[i] = malloc(size_of(i));
	return 0;
}
