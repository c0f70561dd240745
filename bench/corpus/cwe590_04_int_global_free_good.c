/* CWE-590 Free of Memory not on the Heap: GOOD, the fixed twin of
 * cwe590_04_int_global_free_bad.c.
 * Bug there: a global int array is passed to free().
 * Fixed here: the array is malloc'd.
 */
#include <stdio.h>
#include <stdlib.h>

int *global_values;

int main(void)
{
	int *data;
	int i;

	global_values = (int *)malloc(10 * sizeof(int));
	if (global_values == NULL)
		exit(1);
	data = global_values;
	for (i = 0; i < 10; i++)
		data[i] = i;
	printf("%d\n", data[9]);
	free(data);
	return 0;
}
