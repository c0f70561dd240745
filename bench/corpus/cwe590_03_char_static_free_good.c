/* CWE-590 Free of Memory not on the Heap: GOOD, the fixed twin of
 * cwe590_03_char_static_free_bad.c.
 * Bug there: a function-local static char array is passed to free().
 * Fixed here: the buffer is malloc'd.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *get_buffer(void)
{
	return (char *)malloc(100);
}

int main(void)
{
	char *data = get_buffer();

	if (data == NULL)
		exit(1);
	strcpy(data, "static or not");
	printf("%s\n", data);
	free(data);
	return 0;
}
