/* CWE-126 Buffer Over-read: BAD.
 * Bug: a loop sums a 10-int global array with i <= 10.
 * Good twin: cwe126_12_int_global_sum_off_by_one_good.c
 */
#include <stdio.h>

int table[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};

static int sum(const int *values, int n)
{
	int i, total = 0;

	for (i = 0; i <= n; i++)
		total += values[i];
	return total;
}

int main(void)
{
	printf("%d\n", sum(table, 10));
	return 0;
}
