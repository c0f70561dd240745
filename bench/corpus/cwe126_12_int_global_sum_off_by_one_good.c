/* CWE-126 Buffer Over-read: GOOD, the fixed twin of
 * cwe126_12_int_global_sum_off_by_one_bad.c.
 * Bug there: a loop sums a 10-int global array with i <= 10.
 * Fixed here: the loop stops at i < 10.
 */
#include <stdio.h>

int table[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};

static int sum(const int *values, int n)
{
	int i, total = 0;

	for (i = 0; i < n; i++)
		total += values[i];
	return total;
}

int main(void)
{
	printf("%d\n", sum(table, 10));
	return 0;
}
