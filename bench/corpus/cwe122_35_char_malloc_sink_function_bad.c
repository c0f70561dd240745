/* CWE-122 Heap-based Buffer Overflow: BAD.
 * Bug: a 16-byte heap buffer passes through two functions to one that fills
 * 32 bytes of it.
 * Good twin: cwe122_35_char_malloc_sink_function_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void sink(char *buffer, size_t len)
{
	memset(buffer, '*', len - 1);
	buffer[len - 1] = '\0';
}

static void middle(char *buffer, size_t len)
{
	sink(buffer, len);
}

int main(void)
{
	char *buffer = (char *)malloc(16);

	if (buffer == NULL)
		exit(1);
	middle(buffer, 32);
	printf("%s\n", buffer);
	free(buffer);
	return 0;
}
