/* CWE-127 Buffer Under-read: GOOD, the fixed twin of
 * cwe127_05_char_alloca_memcpy_bad.c.
 * Bug there: data is set 8 elements before the start of a 100-byte alloca
 * buffer and then read with memcpy.
 * Fixed here: data points to the start of the buffer.
 */
#include <alloca.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *data;
	char *data_buffer = (char *)alloca(100 * sizeof(char));

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
	return 0;
}
