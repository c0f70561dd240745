/* CWE-126 Buffer Over-read: BAD.
 * Bug: data points to a 50-element malloc'd buffer, but strlen(dest) (99)
 * elements are read from it with a copy loop.
 * Good twin: cwe126_05_char_malloc_loop_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *data = (char *)malloc(50 * sizeof(char));

	if (data == NULL)
		exit(1);
	memset(data, 'A', 50 - 1);
	data[50 - 1] = '\0';
	{
		size_t i, dest_len;
		char dest[100];
		memset(dest, 'C', 100 - 1);
		dest[100 - 1] = '\0';
		dest_len = strlen(dest);
		for (i = 0; i < dest_len; i++)
			dest[i] = data[i];
		dest[100 - 1] = '\0';
		printf("%s\n", dest);
	}
	free(data);
	return 0;
}
