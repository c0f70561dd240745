/* CWE-761 Free of Pointer not at Start of Buffer: GOOD, the fixed twin of
 * cwe761_04_char_skip_whitespace_free_bad.c.
 * Bug there: a trim function returns the malloc'd string advanced past
 * leading spaces, and the caller frees what it returns.
 * Fixed here: the trim moves the text to the start of the buffer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *trim_left(char *s)
{
	size_t skip = strspn(s, " ");
	memmove(s, s + skip, strlen(s + skip) + 1);
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
