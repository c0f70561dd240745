/* CWE-761 Free of Pointer not at Start of Buffer: GOOD, the fixed twin of
 * cwe761_03_char_strchr_value_free_bad.c.
 * Bug there: the value part of a "key=value" malloc'd string, found with
 * strchr, is freed.
 * Fixed here: the value is duplicated and both strings are freed at their
 * starts.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *value_of(char *pair)
{
	char *eq = strchr(pair, '=');

	return strdup(eq ? eq + 1 : pair);
}

int main(void)
{
	char *pair = strdup("colour=blue");
	char *value;

	if (pair == NULL)
		exit(1);
	value = value_of(pair);
	printf("%s\n", value);
	free(value);
	free(pair);
	return 0;
}
