/* CWE-590 Free of Memory not on the Heap: BAD.
 * Bug: memory from alloca() is passed to free().
 * Good twin: cwe590_02_char_alloca_free_good.c
 */
#include <alloca.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *data = (char *)alloca(100 * sizeof(char));

	if (data == NULL)
		exit(1);
	memset(data, 'A', 100 - 1);
	data[100 - 1] = '\0';
	printf("%s\n", data);
	free(data);
	return 0;
}
