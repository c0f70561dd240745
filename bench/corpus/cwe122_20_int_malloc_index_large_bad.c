/* CWE-122 Heap-based Buffer Overflow: BAD.
 * Bug: an index of 10 from a source function is checked only for >= 0 and
 * then used to write into a malloc'd array of 10 ints.
 * Good twin: cwe122_20_int_malloc_index_large_good.c
 */
#include <stdio.h>
#include <stdlib.h>

static int source(void)
{
	return 10;
}

static void sink(int data)
{
	int i;
	int *buffer = (int *)calloc(10, sizeof(int));

	if (buffer == NULL)
		exit(1);
	if (data >= 0) {
		buffer[data] = 1;
		for (i = 0; i < 10; i++)
			printf("%d\n", buffer[i]);
	} else {
		printf("index out of range\n");
	}
	free(buffer);
}

int main(void)
{
	sink(source());
	return 0;
}
