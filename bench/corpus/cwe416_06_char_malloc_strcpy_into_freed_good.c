/* CWE-416 Use After Free: GOOD, the fixed twin of
 * cwe416_06_char_malloc_strcpy_into_freed_bad.c.
 * Bug there: strcpy writes into a malloc'd buffer that a helper has freed.
 * Fixed here: the helper does not free the buffer; its owner frees it at
 * the end.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void reset(char *buffer)
{
	buffer[0] = '\0';

}

int main(void)
{
	char *buffer = (char *)malloc(32);

	if (buffer == NULL)
		exit(1);
	reset(buffer);
	strcpy(buffer, "reused");
	printf("%c\n", buffer[0]);
	free(buffer);
	return 0;
}
