/* CWE-416 Use After Free: GOOD, the fixed twin of
 * cwe416_05_char_malloc_strlen_after_free_bad.c.
 * Bug there: strlen reads a malloc'd string after it was freed.
 * Fixed here: the length is taken before the free.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *name = strdup("a name of some length");
	size_t len;

	if (name == NULL)
		exit(1);
	len = strlen(name);
	free(name);
	printf("%d\n", len > 0);
	return 0;
}
