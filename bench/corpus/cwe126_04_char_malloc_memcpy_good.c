/* CWE-126 Buffer Over-read: GOOD, the fixed twin of
 * cwe126_04_char_malloc_memcpy_bad.c.
 * Bug there: data points to a 50-element malloc'd buffer, but strlen(dest)
 * (99) elements are read from it with memcpy.
 * Fixed here: data points to a 100-element buffer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *data = (char *)malloc(100 * sizeof(char));

	if (data == NULL)
		exit(1);
	memset(data, 'A', 100 - 1);
	data[100 - 1] = '\0';
	{
		char dest[100];
		memset(dest, 'C', 100 - 1);
		dest[100 - 1] = '\0';
		memcpy(dest, data, strlen(dest) * sizeof(char));
		dest[100 - 1] = '\0';
		printf("%s\n", dest);
	}
	free(data);
	return 0;
}
