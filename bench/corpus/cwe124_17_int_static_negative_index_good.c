/* CWE-124 Buffer Underwrite: GOOD, the fixed twin of
 * cwe124_17_int_static_negative_index_bad.c.
 * Bug there: a function-local static int array is written at index count -
 * 1 when count is 0.
 * Fixed here: the write is skipped when count is 0.
 */
#include <stdio.h>

static int record(int value, int count)
{
	static int history[16];

	if (count > 0)
		history[count - 1] = value;
	return history[0];
}

int main(void)
{
	printf("%d\n", record(7, 0));
	return 0;
}
