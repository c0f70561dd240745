/* CWE-122 Heap-based Buffer Overflow: BAD.
 * Bug: an int array grown with realloc by element count rather than bytes
 * (realloc(p, 20)) is filled with 20 ints.
 * Good twin: cwe122_29_int_realloc_grow_wrong_count_good.c
 */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	int *data = (int *)malloc(4 * sizeof(int));
	int *bigger;
	int i;

	if (data == NULL)
		exit(1);
	bigger = (int *)realloc(data, 20);
	if (bigger == NULL)
		exit(1);
	data = bigger;
	for (i = 0; i < 20; i++)
		data[i] = i;
	printf("%d\n", data[19]);
	free(data);
	return 0;
}
