/* CWE-124 Buffer Underwrite: GOOD, the fixed twin of
 * cwe124_15_int_malloc_negative_index_bad.c.
 * Bug there: an index of -5 parsed from fixed text is checked only against
 * the upper bound and written into a malloc'd array of 10 ints.
 * Fixed here: the index is also checked for >= 0.
 */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	const char *input = "-5";
	int data = atoi(input);
	int *buffer = (int *)calloc(10, sizeof(int));
	int i;

	if (buffer == NULL)
		exit(1);
	if (data >= 0 && data < 10) {
		buffer[data] = 1;
		for (i = 0; i < 10; i++)
			printf("%d\n", buffer[i]);
	} else {
		printf("index out of range\n");
	}
	free(buffer);
	return 0;
}
