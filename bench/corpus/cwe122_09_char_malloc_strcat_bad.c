/* CWE-122 Heap-based Buffer Overflow: BAD.
 * Bug: a 99-character string is copied into a 50-byte malloc'd buffer with
 * strcat.
 * Good twin: cwe122_09_char_malloc_strcat_good.c
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
	strcat(dest, data);
	printf("%s\n", dest);
	free(dest);
	free(data);
	return 0;
}
