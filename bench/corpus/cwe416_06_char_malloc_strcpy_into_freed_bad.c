/* CWE-416 Use After Free: BAD.
 * Bug: strcpy writes into a malloc'd buffer that a helper has freed.
 * Good twin: cwe416_06_char_malloc_strcpy_into_freed_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void reset(char *buffer)
{
	buffer[0] = '\0';
	free(buffer);
}

int main(void)
{
	char *buffer = (char *)malloc(32);

	if (buffer == NULL)
		exit(1);
	reset(buffer);
	strcpy(buffer, "reused");
	printf("%c\n", buffer[0]);

	return 0;
}
