/* CWE-590 Free of Memory not on the Heap: BAD.
 * Bug: a pointer to a string literal is passed to free().
 * Good twin: cwe590_05_char_string_literal_free_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *default_name(void)
{
	return (char *)"anonymous";
}

int main(void)
{
	char *name = default_name();

	if (name == NULL)
		exit(1);
	printf("%s\n", name);
	free(name);
	return 0;
}
