/* CWE-416 Use After Free: BAD.
 * Bug: strlen reads a malloc'd string after it was freed.
 * Good twin: cwe416_05_char_malloc_strlen_after_free_good.c
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
	free(name);
	len = strlen(name);
	printf("%d\n", len > 0);
	return 0;
}
