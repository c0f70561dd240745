/* CWE-761 Free of Pointer not at Start of Buffer: BAD.
 * Bug: the value part of a "key=value" malloc'd string, found with strchr,
 * is freed.
 * Good twin: cwe761_03_char_strchr_value_free_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *value_of(char *pair)
{
	char *eq = strchr(pair, '=');

	return eq ? eq + 1 : pair;
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

	return 0;
}
