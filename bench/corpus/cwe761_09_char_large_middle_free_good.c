/* CWE-761 Free of Pointer not at Start of Buffer: GOOD, the fixed twin of
 * cwe761_09_char_large_middle_free_bad.c.
 * Bug there: a pointer 4096 bytes into a 256 KiB malloc'd buffer is freed.
 * Fixed here: the buffer's start is freed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	size_t size = 256 * 1024;
	char *data = (char *)malloc(size);
	char *page;

	if (data == NULL)
		exit(1);
	memset(data, 0, size);
	page = data + 4096;
	page[0] = 'p';
	printf("%c\n", data[4096]);
	free(data);
	return 0;
}
