/* CWE-127 Buffer Under-read: BAD.
 * Bug: data is set 8 elements before the start of a 100-byte stack buffer
 * and then read with a copy loop.
 * Good twin: cwe127_02_char_declare_loop_good.c
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
		char dest[100 * 2];
		memset(dest, 'C', 100 - 1);
		dest[100 - 1] = '\0';
		for (i = 0; i < 100; i++)
			dest[i] = data[i];
		dest[100 - 1] = '\0';
		printf("%s\n", dest);
	}
	return 0;
}
