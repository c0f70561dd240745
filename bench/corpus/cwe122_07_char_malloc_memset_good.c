/* CWE-122 Heap-based Buffer Overflow: GOOD, the fixed twin of
 * cwe122_07_char_malloc_memset_bad.c.
 * Bug there: data points to a 50-byte malloc'd buffer, but 100 bytes are
 * written into it with memset.
 * Fixed here: data is allocated with 100 bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *data = (char *)malloc(100 * sizeof(char));

	if (data == NULL)
		exit(1);
	data[0] = '\0';
	{
		char source[100];
		memset(source, 'C', 100 - 1);
		source[100 - 1] = '\0';
		memset(data, 'A', 100 - 1);
		data[100 - 1] = '\0';
		printf("%s\n", data);
	}
	free(data);
	return 0;
}
