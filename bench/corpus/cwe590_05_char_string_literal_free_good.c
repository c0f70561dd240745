/* CWE-590 Free of Memory not on the Heap: GOOD, the fixed twin of
 * cwe590_05_char_string_literal_free_bad.c.
 * Bug there: a pointer to a string literal is passed to free().
 * Fixed here: the string is strdup'd.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *default_name(void)
{
	return strdup("anonymous");
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
