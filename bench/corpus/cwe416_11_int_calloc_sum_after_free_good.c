/* CWE-416 Use After Free: GOOD, the fixed twin of
 * cwe416_11_int_calloc_sum_after_free_bad.c.
 * Bug there: a calloc'd int array is summed after free.
 * Fixed here: the sum is taken before the free.
 */
#include <stdio.h>
#include <stdlib.h>

static long sum(const int *values, int n)
{
	long total = 0;
	int i;

	for (i = 0; i < n; i++)
		total += values[i];
	return total;
}

int main(void)
{
	int *values = (int *)calloc(16, sizeof(int));
	long total;

	if (values == NULL)
		exit(1);
	values[3] = 3;
	total = sum(values, 16);
	free(values);
	printf("%ld\n", total);
	return 0;
}
