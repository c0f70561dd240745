/* CWE-126 Buffer Over-read: GOOD, the fixed twin of
 * cwe126_14_char_malloc_strlen_unterminated_bad.c.
 * Bug there: strlen runs over a 10-byte malloc'd buffer filled by strncpy
 * with no room for a terminator.
 * Fixed here: the buffer is terminated after strncpy.
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
	strncpy(buffer, "0123456789abcdef", size);
	buffer[size - 1] = '\0';
	printf("%zu\n", strlen(buffer));
	free(buffer);
	return 0;
}
