// MODE: generic
// Rounds of 200 large objects, written, then all freed: each round's frees
// pass the purge's threshold; every other round ukasan_purge() empties the
// quarantine too, and the purge releases the shadow of a run that reaches
// into never-used space, whose shadow (on arm64, mapped on demand) was
// never mapped. A reused extent must then read as
// accessible: no report. (Under qemu-user, one discard over a range with
// unmapped shadow in it did nothing, so purged extents kept their freed
// shadow and every reuse was reported as a use after free.)
// NOT: BUG: KASAN
// STDOUT: large objects reused: ok
#include <stdio.h>
#include <stdlib.h>

#include "ukasan.h"

enum { N = 200, PAGES = 64 };

int main(void)
{
	static volatile char *p[N];
	size_t total = 0;
	/* Each round frees 51 MiB at once: more than the purge waits for. */
	for (int round = 0; round < 4; round++) {
		for (int i = 0; i < N; i++) {
			p[i] = malloc(PAGES * 4096);
			if (!p[i])
				return 1;
			p[i][0] = 1;
			p[i][PAGES * 4096 - 1] = 2;
			total += p[i][0] + p[i][PAGES * 4096 - 1];
		}
		for (int i = 0; i < N; i++)
			free((void *)p[i]);
		/* The quarantine too, so the freed run reaches the fresh space. */
		if (round & 1)
			ukasan_purge();
	}
	printf("large objects reused: %s\n", total == 3 * 4 * N ? "ok" : "WRONG");
	return 0;
}
