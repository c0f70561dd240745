/* CWE-590 Free of Memory not on the Heap: BAD.
 * Bug: a function-local static char array is passed to free().
 * Good twin: cwe590_03_char_static_free_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *get_buffer(void)
{
	static char buffer[100];
	return buffer;
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
