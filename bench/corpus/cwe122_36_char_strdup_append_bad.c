/* CWE-122 Heap-based Buffer Overflow: BAD.
 * Bug: a string duplicated with strdup (exactly its length + 1) gets a
 * suffix appended with strcat.
 * Good twin: cwe122_36_char_strdup_append_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	const char *base = "report";
	const char *suffix = ".txt";
	char *name;

	name = strdup(base);
	if (name == NULL)
		exit(1);
	strcat(name, suffix);
	printf("%s\n", name);
	free(name);
	return 0;
}
