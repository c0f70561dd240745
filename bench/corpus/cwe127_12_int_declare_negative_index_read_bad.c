/* CWE-127 Buffer Under-read: BAD.
 * Bug: an index of -1, checked only against the upper bound, reads a 10-int
 * stack array.
 * Good twin: cwe127_12_int_declare_negative_index_read_good.c
 */
#include <stdio.h>

static int source(void)
{
	return -1;
}

int main(void)
{
	int data = source();
	int buffer[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};

	if (data < 10)
		printf("%d\n", buffer[data]);
	else
		printf("index out of range\n");
	return 0;
}
