/* CWE-122 Heap-based Buffer Overflow: BAD.
 * Bug: data points to a 50-byte malloc'd buffer, but 100 bytes are written
 * into it with a copy loop.
 * Good twin: cwe122_03_char_malloc_loop_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *data = (char *)malloc(50 * sizeof(char));

	if (data == NULL)
		exit(1);
	data[0] = '\0';
	{
		char source[100];
		memset(source, 'C', 100 - 1);
		source[100 - 1] = '\0';
		size_t i;
		for (i = 0; i < 100; i++)
			data[i] = source[i];
		data[100 - 1] = '\0';
		printf("%s\n", data);
	}
	free(data);
	return 0;
}
