/* CWE-416 Use After Free: BAD.
 * Bug: memcpy reads a malloc'd buffer after it was freed.
 * Good twin: cwe416_04_char_malloc_memcpy_from_freed_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *data = (char *)malloc(32);
	char copy[32];

	if (data == NULL)
		exit(1);
	strcpy(data, "contents");
	free(data);
	memcpy(copy, data, sizeof(copy));
	copy[sizeof(copy) - 1] = '\0';
	printf("%zu\n", strlen(copy) > 0 ? (size_t)1 : (size_t)0);
	return 0;
}
