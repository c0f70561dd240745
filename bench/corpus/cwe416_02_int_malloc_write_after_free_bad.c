/* CWE-416 Use After Free: BAD.
 * Bug: an element of a malloc'd int array is written after free.
 * Good twin: cwe416_02_int_malloc_write_after_free_good.c
 */
#include <stdio.h>
#include <stdlib.h>

static int *make_counts(void)
{
	int *counts = (int *)calloc(8, sizeof(int));

	if (counts == NULL)
		exit(1);
	return counts;
}

int main(void)
{
	int *counts = make_counts();

	counts[0] = 1;
	printf("%d\n", counts[0]);
	free(counts);
	counts[1] = 2;
	return 0;
}
