/* CWE-415 Double Free: BAD.
 * Bug: a 256 KiB malloc'd buffer is freed twice.
 * Good twin: cwe415_10_char_malloc_large_free_twice_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	size_t size = 256 * 1024;
	char *data = (char *)malloc(size);

	if (data == NULL)
		exit(1);
	memset(data, 'L', size);
	printf("%c\n", data[size - 1]);
	free(data);
	free(data);
	return 0;
}
