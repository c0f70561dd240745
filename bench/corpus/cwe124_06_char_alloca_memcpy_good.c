/* CWE-124 Buffer Underwrite: GOOD, the fixed twin of
 * cwe124_06_char_alloca_memcpy_bad.c.
 * Bug there: data is set 8 elements before the start of a 100-byte alloca
 * buffer and then written with memcpy.
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
		char source[100];
		memset(source, 'C', 100 - 1);
		source[100 - 1] = '\0';
		memcpy(data, source, 100 * sizeof(char));
		data[100 - 1] = '\0';
		printf("%s\n", data);
	}
	return 0;
}
