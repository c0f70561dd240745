/* CWE-126 Buffer Over-read: GOOD, the fixed twin of
 * cwe126_19_char_malloc_memcmp_past_end_bad.c.
 * Bug there: memcmp compares 20 bytes of a 10-byte malloc'd buffer.
 * Fixed here: memcmp compares the buffer's size.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	const char expected[20] = "0123456789ABCDEFGHI";
	char *data = (char *)malloc(10);

	if (data == NULL)
		exit(1);
	memcpy(data, expected, 10);
	printf("%d\n", memcmp(data, expected, 10) == 0);
	free(data);
	return 0;
}
