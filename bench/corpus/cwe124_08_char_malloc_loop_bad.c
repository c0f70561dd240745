/* CWE-124 Buffer Underwrite: BAD.
 * Bug: data is set 8 elements before the start of a 100-byte malloc'd
 * buffer and then written with a copy loop.
 * Good twin: cwe124_08_char_malloc_loop_good.c
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
	free(data_buffer);
	return 0;
}
