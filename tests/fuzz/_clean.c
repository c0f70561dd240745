/* A fuzz target without a bug, whose coverage grows (so merging has
 * something to keep), and that allocates, frees and compares every run:
 * no report, no crash file, exit status 0. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

volatile int seen; /* keeps the branches */

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	char *p = malloc(n + 1);
	memcpy(p, d, n);
	p[n] = 0;
	if (n > 2 && p[0] == 'a')
		seen += p[1] == 'b' ? 2 : 1;
	if (strcmp(p, "clean") == 0)
		seen++;
	free(p);
	return 0;
}
