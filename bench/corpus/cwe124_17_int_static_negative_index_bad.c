/* CWE-124 Buffer Underwrite: BAD.
 * Bug: a function-local static int array is written at index count - 1 when
 * count is 0.
 * Good twin: cwe124_17_int_static_negative_index_good.c
 */
#include <stdio.h>

static int record(int value, int count)
{
	static int history[16];

	history[count - 1] = value;
	return history[0];
}

int main(void)
{
	printf("%d\n", record(7, 0));
	return 0;
}
