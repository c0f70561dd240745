/* CWE-415 Double Free: BAD.
 * Bug: a buffer from posix_memalign is freed inside a retry loop that runs
 * twice.
 * Good twin: cwe415_12_posix_memalign_loop_good.c
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
		free(mem);
	}

	return 0;
}
