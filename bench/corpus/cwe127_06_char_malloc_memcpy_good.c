/* CWE-127 Buffer Under-read: GOOD, the fixed twin of
 * cwe127_06_char_malloc_memcpy_bad.c.
 * Bug there: data is set 8 elements before the start of a 100-byte malloc'd
 * buffer and then read with memcpy.
 * Fixed here: data points to the start of the buffer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *data;
	char *data_buffer = (char *)malloc(100 * sizeof(char));

	if (data_buffer == NULL)
		exit(1);
	memset(data_buffer, 'A', 100 - 1);
	data_buffer[100 - 1] = '\0';
	data = data_buffer;
	{
		char dest[100 * 2];
		memset(dest, 'C', 100 - 1);
		dest[100 - 1] = '\0';
		memcpy(dest, data, 100 * sizeof(char));
		dest[100 - 1] = '\0';
		printf("%s\n", dest);
	}
	free(data_buffer);
	return 0;
}
