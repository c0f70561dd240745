/* CWE-590 Free of Memory not on the Heap: BAD.
 * Bug: a global int array is passed to free().
 * Good twin: cwe590_04_int_global_free_good.c
 */
#include <stdio.h>
#include <stdlib.h>

int global_values[10];

int main(void)
{
	int *data;
	int i;

	data = global_values;
	for (i = 0; i < 10; i++)
		data[i] = i;
	printf("%d\n", data[9]);
	free(data);
	return 0;
}
