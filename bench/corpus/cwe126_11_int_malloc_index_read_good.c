/* CWE-126 Buffer Over-read: GOOD, the fixed twin of
 * cwe126_11_int_malloc_index_read_bad.c.
 * Bug there: an index of 10 parsed from fixed text, checked only for >= 0,
 * reads a malloc'd array of 10 ints.
 * Fixed here: the index is also checked against the array's length.
 */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	int data = (int)strtol("10", NULL, 10);
	int *buffer = (int *)malloc(10 * sizeof(int));
	int i;

	if (buffer == NULL)
		exit(1);
	for (i = 0; i < 10; i++)
		buffer[i] = i;
	if (data >= 0 && data < 10)
		printf("%d\n", buffer[data]);
	else
		printf("index out of range\n");
	free(buffer);
	return 0;
}
