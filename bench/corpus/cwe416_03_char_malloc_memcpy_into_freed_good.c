/* CWE-416 Use After Free: GOOD, the fixed twin of
 * cwe416_03_char_malloc_memcpy_into_freed_bad.c.
 * Bug there: memcpy writes into a malloc'd buffer after it was freed.
 * Fixed here: the buffer is freed after the copy.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *data = (char *)malloc(64);
	const char *source = "copied after free";

	if (data == NULL)
		exit(1);
	data[0] = '\0';
	memcpy(data, source, strlen(source) + 1);
	printf("%d\n", data[0] != 0);
	free(data);
	return 0;
}
