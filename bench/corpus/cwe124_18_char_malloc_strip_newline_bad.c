/* CWE-124 Buffer Underwrite: BAD.
 * Bug: the last character of a line is overwritten with a terminator at
 * line[strlen(line) - 1]; for an empty line that is the byte before the
 * malloc'd buffer.
 * Good twin: cwe124_18_char_malloc_strip_newline_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void strip_newline(char *line)
{
	size_t len = strlen(line);

	line[len - 1] = '\0';
}

int main(void)
{
	char *line = strdup(""); /* an empty line read from input */

	if (line == NULL)
		exit(1);
	strip_newline(line);
	printf("[%s]\n", line);
	free(line);
	return 0;
}
