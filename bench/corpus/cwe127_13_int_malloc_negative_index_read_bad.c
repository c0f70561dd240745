/* CWE-127 Buffer Under-read: BAD.
 * Bug: an index of -3 parsed from fixed text, checked only against the
 * upper bound, reads a malloc'd array of 10 ints.
 * Good twin: cwe127_13_int_malloc_negative_index_read_good.c
 */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	int data = atoi("-3");
	int *buffer = (int *)malloc(10 * sizeof(int));
	int i;

	if (buffer == NULL)
		exit(1);
	for (i = 0; i < 10; i++)
		buffer[i] = i;
	if (data < 10)
		printf("%d\n", buffer[data]);
	else
		printf("index out of range\n");
	free(buffer);
	return 0;
}
