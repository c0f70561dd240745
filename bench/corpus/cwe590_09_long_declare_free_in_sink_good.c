/* CWE-590 Free of Memory not on the Heap: GOOD, the fixed twin of
 * cwe590_09_long_declare_free_in_sink_bad.c.
 * Bug there: a stack long array passes through a sink that frees it.
 * Fixed here: the array is malloc'd.
 */
#include <stdio.h>
#include <stdlib.h>

static void sink(long *data)
{
	printf("%ld\n", data[0]);
	free(data);
}

int main(void)
{
	long *data;
	int i;
	data = (long *)malloc(10 * sizeof(long));
	if (data == NULL)
		exit(1);
	for (i = 0; i < 10; i++)
		data[i] = 5L;
	sink(data);
	return 0;
}
