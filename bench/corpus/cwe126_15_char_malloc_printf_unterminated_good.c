/* CWE-126 Buffer Over-read: GOOD, the fixed twin of
 * cwe126_15_char_malloc_printf_unterminated_bad.c.
 * Bug there: printf("%s") prints a 10-byte malloc'd buffer that memcpy
 * filled without a terminator.
 * Fixed here: the buffer is terminated.
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
	buffer[size - 1] = '\0';
	printf("%s\n", buffer);
	free(buffer);
	return 0;
}
