/* CWE-124 Buffer Underwrite: BAD.
 * Bug: data is set 8 elements before the start of a 100-byte stack buffer
 * and then written with a copy loop.
 * Good twin: cwe124_05_char_declare_loop_good.c
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
		size_t i;
		char source[100];
		memset(source, 'C', 100 - 1);
		source[100 - 1] = '\0';
		for (i = 0; i < 100; i++)
			data[i] = source[i];
		data[100 - 1] = '\0';
		printf("%s\n", data);
	}
	return 0;
}
