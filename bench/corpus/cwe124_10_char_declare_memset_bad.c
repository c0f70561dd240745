/* CWE-124 Buffer Underwrite: BAD.
 * Bug: data is set 8 elements before the start of a 100-byte stack buffer
 * and then written with memset.
 * Good twin: cwe124_10_char_declare_memset_good.c
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
	data = data_buffer - 8;
	{
		memset(data, 'C', 100 - 1);
		data[100 - 1] = '\0';
		printf("%s\n", data);
	}
	return 0;
}
