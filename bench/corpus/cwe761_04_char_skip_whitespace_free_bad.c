/* CWE-761 Free of Pointer not at Start of Buffer: BAD.
 * Bug: a trim function returns the malloc'd string advanced past leading
 * spaces, and the caller frees what it returns.
 * Good twin: cwe761_04_char_skip_whitespace_free_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *trim_left(char *s)
{
	while (*s == ' ')
		s++;
	return s;
}

int main(void)
{
	char *line = strdup("   indented");

	if (line == NULL)
		exit(1);
	line = trim_left(line);
	printf("%s\n", line);
	free(line);
	return 0;
}
