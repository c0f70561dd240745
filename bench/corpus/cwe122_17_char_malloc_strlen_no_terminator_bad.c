/* CWE-122 Heap-based Buffer Overflow: BAD.
 * Bug: malloc(strlen(source)) leaves no room for the terminator that strcpy
 * writes (CWE-193).
 * Good twin: cwe122_17_char_malloc_strlen_no_terminator_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *duplicate(const char *source)
{
	char *copy = (char *)malloc(strlen(source));

	if (copy == NULL)
		exit(1);
	strcpy(copy, source);
	return copy;
}

int main(void)
{
	char *name = duplicate("AAAAAAAAAAAAAAA");

	printf("%s\n", name);
	free(name);
	return 0;
}
