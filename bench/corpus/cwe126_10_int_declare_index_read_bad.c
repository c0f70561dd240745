/* CWE-126 Buffer Over-read: BAD.
 * Bug: an index of 10, checked only for >= 0, reads a 10-int stack array.
 * Good twin: cwe126_10_int_declare_index_read_good.c
 */
#include <stdio.h>

static int source(void)
{
	return 10;
}

int main(void)
{
	int data = source();
	int buffer[10] = {0, 1, 2, 3, 4, 5, 6, 7, 8, 9};

	if (data >= 0)
		printf("%d\n", buffer[data]);
	else
		printf("index out of range\n");
	return 0;
}
