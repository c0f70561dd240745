/* CWE-122 Heap-based Buffer Overflow: GOOD, the fixed twin of
 * cwe122_14_int_malloc_memcpy_sizeof_bad.c.
 * Bug there: malloc(10) allocates 10 bytes where 10 ints are meant
 * (CWE-131); memcpy copies 10 ints into it.
 * Fixed here: malloc(10 * sizeof(int)).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	int *data = (int *)malloc(10 * sizeof(int));
	int source[10] = {0};

	if (data == NULL)
		exit(1);
	memcpy(data, source, 10 * sizeof(int));
	printf("%d\n", data[0]);
	free(data);
	return 0;
}
