/* CWE-415 Double Free: GOOD, the fixed twin of
 * cwe415_12_posix_memalign_loop_bad.c.
 * Bug there: a buffer from posix_memalign is freed inside a retry loop that
 * runs twice.
 * Fixed here: the buffer is freed after the loop.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	void *mem = NULL;
	int attempt;

	if (posix_memalign(&mem, 32, 128) != 0)
		exit(1);
	memset(mem, 0, 128);
	for (attempt = 0; attempt < 2; attempt++) {
		printf("attempt %d\n", attempt);

	}
	free(mem);
	return 0;
}
