/* Planted bugs for the fuzzer tests: the input's first byte chooses one
 * (O: heap overflow, U: use after free, D: double free), so that a fuzzer
 * finds all three in a few seconds. Used as
 * a libFuzzer-style harness (LLVMFuzzerTestOneInput) and, with
 * -DBUGS_MAIN, as a program reading its input from argv[1]. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static volatile char sink;

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	if (n < 1)
		return 0;
	if (d[0] == 'O') {
		char *volatile p = malloc(16);
		memset(p, 0, 16);
		sink = p[16 + (n & 1)];
		free(p);
	}
	if (d[0] == 'U') {
		char *volatile p = malloc(32);
		free(p);
		sink = p[3];
	}
	if (d[0] == 'D') {
		char *volatile p = malloc(48);
		free(p);
		free(p);
	}
	return 0;
}

#ifdef BUGS_MAIN
int main(int argc, char **argv)
{
	if (argc > 1)
		LLVMFuzzerTestOneInput((const uint8_t *)argv[1], strlen(argv[1]));
	return 0;
}
#endif
