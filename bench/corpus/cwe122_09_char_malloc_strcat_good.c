/* CWE-122 Heap-based Buffer Overflow: GOOD, the fixed twin of
 * cwe122_09_char_malloc_strcat_bad.c.
 * Bug there: a 99-character string is copied into a 50-byte malloc'd buffer
 * with strcat.
 * Fixed here: strncat bounded by the room left.
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
	strncat(dest, data, 50 - strlen(dest) - 1);
	printf("%s\n", dest);
	free(dest);
	free(data);
	return 0;
}
