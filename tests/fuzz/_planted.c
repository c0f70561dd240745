/* A fuzz target with three planted bugs, one armed per run (FUZZ_BUG=O, U
 * or D in the environment), so that each run finds the one asked for: a
 * heap overflow, a use after free, a double free, behind two bytes of
 * input the fuzzer's coverage leads it to. */
#include <stdint.h>
#include <stdlib.h>

static char armed;
char *volatile sink; /* the compiler may not drop the allocation */

int LLVMFuzzerInitialize(int *argc, char ***argv)
{
	(void)argc, (void)argv;
	const char *b = getenv("FUZZ_BUG");
	armed = b ? b[0] : 0;
	return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *d, size_t n)
{
	if (n < 3 || d[0] != 'B' || d[1] != 'U' || d[2] != armed)
		return 0;
	char *p = malloc(8);
	sink = p;
	switch (armed) {
	case 'O':
		p[8] = 1;
		break;
	case 'U':
		free(p);
		p[0] = 1;
		return 0;
	case 'D':
		free(p);
		free(p);
		return 0;
	}
	free(p);
	return 0;
}
