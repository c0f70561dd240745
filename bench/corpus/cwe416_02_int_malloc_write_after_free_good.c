/* CWE-416 Use After Free: GOOD, the fixed twin of
 * cwe416_02_int_malloc_write_after_free_bad.c.
 * Bug there: an element of a malloc'd int array is written after free.
 * Fixed here: the write happens before the free.
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
	counts[1] = 2;
	free(counts);
	return 0;
}
