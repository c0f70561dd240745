/* CWE-127 Buffer Under-read: GOOD, the fixed twin of
 * cwe127_13_int_malloc_negative_index_read_bad.c.
 * Bug there: an index of -3 parsed from fixed text, checked only against
 * the upper bound, reads a malloc'd array of 10 ints.
 * Fixed here: the index is also checked for >= 0.
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
	if (data >= 0 && data < 10)
		printf("%d\n", buffer[data]);
	else
		printf("index out of range\n");
	free(buffer);
	return 0;
}
