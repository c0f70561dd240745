/* CWE-590 Free of Memory not on the Heap: GOOD, the fixed twin of
 * cwe590_02_char_alloca_free_bad.c.
 * Bug there: memory from alloca() is passed to free().
 * Fixed here: the buffer is malloc'd.
 */
#include <alloca.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *data = (char *)malloc(100 * sizeof(char));

	if (data == NULL)
		exit(1);
	memset(data, 'A', 100 - 1);
	data[100 - 1] = '\0';
	printf("%s\n", data);
	free(data);
	return 0;
}
