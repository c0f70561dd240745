/* CWE-122 Heap-based Buffer Overflow: BAD.
 * Bug: data points to a 50-byte malloc'd buffer, but 100 bytes are written
 * into it with memmove.
 * Good twin: cwe122_02_char_malloc_memmove_good.c
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
		memmove(data, source, 100 * sizeof(char));
		data[100 - 1] = '\0';
		printf("%s\n", data);
	}
	free(data);
	return 0;
}
