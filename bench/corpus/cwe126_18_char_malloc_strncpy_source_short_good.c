/* CWE-126 Buffer Over-read: GOOD, the fixed twin of
 * cwe126_18_char_malloc_strncpy_source_short_bad.c.
 * Bug there: strncpy is given a bound of 32 for a 10-byte unterminated
 * malloc'd source, and reads past it looking for a terminator.
 * Fixed here: the bound is the source's size.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *source = (char *)malloc(10);
	char dest[32 + 1];

	if (source == NULL)
		exit(1);
	memset(source, 'S', 10);
	strncpy(dest, source, 10);
	dest[10] = '\0';
	printf("%s\n", dest);
	free(source);
	return 0;
}
