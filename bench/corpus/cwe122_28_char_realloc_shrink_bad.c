/* CWE-122 Heap-based Buffer Overflow: BAD.
 * Bug: a buffer is shrunk with realloc to 10 bytes and then written as if
 * it still had 20.
 * Good twin: cwe122_28_char_realloc_shrink_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *data = (char *)malloc(20);
	char *smaller;

	if (data == NULL)
		exit(1);
	memset(data, 'A', 20);
	smaller = (char *)realloc(data, 10);
	if (smaller == NULL)
		exit(1);
	data = smaller;
	memset(data, 'B', 20);
	data[19] = '\0';
	printf("%s\n", data);
	free(data);
	return 0;
}
