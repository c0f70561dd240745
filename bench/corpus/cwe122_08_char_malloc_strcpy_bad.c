/* CWE-122 Heap-based Buffer Overflow: BAD.
 * Bug: a 99-character string is copied into a 50-byte malloc'd buffer with
 * strcpy.
 * Good twin: cwe122_08_char_malloc_strcpy_good.c
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
	strcpy(dest, data);
	printf("%s\n", dest);
	free(dest);
	free(data);
	return 0;
}
