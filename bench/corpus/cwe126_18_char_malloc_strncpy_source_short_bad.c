/* CWE-126 Buffer Over-read: BAD.
 * Bug: strncpy is given a bound of 32 for a 10-byte unterminated malloc'd
 * source, and reads past it looking for a terminator.
 * Good twin: cwe126_18_char_malloc_strncpy_source_short_good.c
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
	strncpy(dest, source, 32);
	dest[32] = '\0';
	printf("%s\n", dest);
	free(source);
	return 0;
}
