/* CWE-416 Use After Free: BAD.
 * Bug: the first character of a malloc'd string is read after free.
 * Good twin: cwe416_01_char_malloc_read_after_free_good.c
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
	free(data);
	first = data[0];
	printf("%c\n", first);
	return 0;
}
