/* CWE-122 Heap-based Buffer Overflow: GOOD, the fixed twin of
 * cwe122_36_char_strdup_append_bad.c.
 * Bug there: a string duplicated with strdup (exactly its length + 1) gets
 * a suffix appended with strcat.
 * Fixed here: the copy is made with room for the suffix.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	const char *base = "report";
	const char *suffix = ".txt";
	char *name;

	name = (char *)malloc(strlen(base) + strlen(suffix) + 1);
	if (name != NULL)
		strcpy(name, base);
	if (name == NULL)
		exit(1);
	strcat(name, suffix);
	printf("%s\n", name);
	free(name);
	return 0;
}
