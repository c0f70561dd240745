/* CWE-122 Heap-based Buffer Overflow: GOOD, the fixed twin of
 * cwe122_10_char_malloc_sprintf_bad.c.
 * Bug there: a 99-character string is copied into a 50-byte malloc'd buffer
 * with sprintf.
 * Fixed here: snprintf bounded by the destination's size.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *data = (char *)malloc(100 * sizeof(char));
	char *dest = (char *)malloc(50 * sizeof(char));

	if (data == NULL || dest == NULL)
		exit(1);
	memset(data, 'A', 100 - 1);
	data[100 - 1] = '\0';
	dest[0] = '\0';
	snprintf(dest, 50, "%s", data);
	printf("%s\n", dest);
	free(dest);
	free(data);
	return 0;
}
