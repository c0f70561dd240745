/* CWE-122 Heap-based Buffer Overflow: BAD.
 * Bug: an index parsed from fixed text (as if from input), 10, is checked
 * only for >= 0 and used to write into a malloc'd array of 10 ints.
 * Good twin: cwe122_21_int_malloc_index_from_string_good.c
 */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	char input[] = "10"; /* stands for a line read from a socket */
	int data = atoi(input);
	int i;
	int *buffer = (int *)malloc(10 * sizeof(int));

	if (buffer == NULL)
		exit(1);
	for (i = 0; i < 10; i++)
		buffer[i] = 0;
	if (data >= 0) {
		buffer[data] = 1;
		for (i = 0; i < 10; i++)
			printf("%d\n", buffer[i]);
	} else {
		printf("index out of range\n");
	}
	free(buffer);
	return 0;
}
