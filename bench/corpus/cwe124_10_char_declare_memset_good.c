/* CWE-124 Buffer Underwrite: GOOD, the fixed twin of
 * cwe124_10_char_declare_memset_bad.c.
 * Bug there: data is set 8 elements before the start of a 100-byte stack
 * buffer and then written with memset.
 * Fixed here: data points to the start of the buffer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *data;
	char data_buffer[100];

	memset(data_buffer, 'A', 100 - 1);
	data_buffer[100 - 1] = '\0';
	data = data_buffer;
	{
		memset(data, 'C', 100 - 1);
		data[100 - 1] = '\0';
		printf("%s\n", data);
	}
	return 0;
}
