/* CWE-761 Free of Pointer not at Start of Buffer: BAD.
 * Bug: realloc() is given a pointer into the middle of a malloc'd buffer.
 * Good twin: cwe761_08_char_realloc_middle_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *buffer = (char *)malloc(32);
	char *tail, *bigger;

	if (buffer == NULL)
		exit(1);
	strcpy(buffer, "head:tail");
	tail = strchr(buffer, ':') + 1;
	printf("%s\n", tail);
	bigger = (char *)realloc(tail, 128);
	if (bigger == NULL)
		exit(1);
	free(bigger);
	return 0;
}
