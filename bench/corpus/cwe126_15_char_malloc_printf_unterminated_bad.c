/* CWE-126 Buffer Over-read: BAD.
 * Bug: printf("%s") prints a 10-byte malloc'd buffer that memcpy filled
 * without a terminator.
 * Good twin: cwe126_15_char_malloc_printf_unterminated_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	size_t size = 10;
	char *buffer = (char *)malloc(size);

	if (buffer == NULL)
		exit(1);
	memcpy(buffer, "0123456789", size);

	printf("%s\n", buffer);
	free(buffer);
	return 0;
}
