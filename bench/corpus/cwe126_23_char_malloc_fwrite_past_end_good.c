/* CWE-126 Buffer Over-read: GOOD, the fixed twin of
 * cwe126_23_char_malloc_fwrite_past_end_bad.c.
 * Bug there: fwrite writes 100 bytes to /dev/null from a 50-byte malloc'd
 * buffer.
 * Fixed here: fwrite writes the buffer's size.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	size_t size = 50;
	char *data = (char *)malloc(size);
	FILE *out = fopen("/dev/null", "w");
	size_t n;

	if (data == NULL || out == NULL)
		exit(1);
	memset(data, 'D', size);
	n = fwrite(data, 1, size, out);
	fclose(out);
	printf("%zu\n", n);
	free(data);
	return 0;
}
