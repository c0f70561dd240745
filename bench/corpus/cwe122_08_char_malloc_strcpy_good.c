/* CWE-122 Heap-based Buffer Overflow: GOOD, the fixed twin of
 * cwe122_08_char_malloc_strcpy_bad.c.
 * Bug there: a 99-character string is copied into a 50-byte malloc'd buffer
 * with strcpy.
 * Fixed here: strncpy bounded by the destination's size, then a terminator.
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
	strncpy(dest, data, 50 - 1);
	dest[50 - 1] = '\0';
	printf("%s\n", dest);
	free(dest);
	free(data);
	return 0;
}
