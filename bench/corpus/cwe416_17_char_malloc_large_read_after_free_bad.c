/* CWE-416 Use After Free: BAD.
 * Bug: a byte of a 256 KiB malloc'd buffer is read after free.
 * Good twin: cwe416_17_char_malloc_large_read_after_free_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	size_t size = 256 * 1024;
	char *data = (char *)malloc(size);
	char last;

	if (data == NULL)
		exit(1);
	memset(data, 'Z', size);
	free(data);
	last = data[size - 1];
	printf("%c\n", last);
	return 0;
}
