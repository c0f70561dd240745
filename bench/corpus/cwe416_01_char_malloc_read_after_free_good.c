/* CWE-416 Use After Free: GOOD, the fixed twin of
 * cwe416_01_char_malloc_read_after_free_bad.c.
 * Bug there: the first character of a malloc'd string is read after free.
 * Fixed here: it is read before the free.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *data = (char *)malloc(100 * sizeof(char));
	char first;

	if (data == NULL)
		exit(1);
	memset(data, 'A', 100 - 1);
	data[100 - 1] = '\0';
	first = data[0];
	free(data);
	printf("%c\n", first);
	return 0;
}
