/* CWE-590 Free of Memory not on the Heap: BAD.
 * Bug: a stack long array passes through a sink that frees it.
 * Good twin: cwe590_09_long_declare_free_in_sink_good.c
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
	long data_buffer[10];
	data = data_buffer;
	for (i = 0; i < 10; i++)
		data[i] = 5L;
	sink(data);
	return 0;
}
