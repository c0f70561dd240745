/* CWE-122 Heap-based Buffer Overflow: BAD.
 * Bug: malloc(10) allocates 10 bytes where 10 ints are meant (CWE-131); a
 * loop copies 10 ints into it.
 * Good twin: cwe122_13_int_malloc_loop_sizeof_good.c
 */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	int *data = (int *)malloc(10);
	int source[10] = {0};
	size_t i;

	if (data == NULL)
		exit(1);
	for (i = 0; i < 10; i++)
		data[i] = source[i];
	printf("%d\n", data[0]);
	free(data);
	return 0;
}
