/* CWE-416 Use After Free: BAD.
 * Bug: a calloc'd int array is summed after free.
 * Good twin: cwe416_11_int_calloc_sum_after_free_good.c
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
	free(values);
	total = sum(values, 16);
	printf("%ld\n", total);
	return 0;
}
