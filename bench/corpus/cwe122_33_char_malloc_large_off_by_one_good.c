/* CWE-122 Heap-based Buffer Overflow: GOOD, the fixed twin of
 * cwe122_33_char_malloc_large_off_by_one_bad.c.
 * Bug there: a loop writes one byte past a 256 KiB malloc'd buffer.
 * Fixed here: the loop stops at the buffer's size.
 */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	size_t size = 256 * 1024, i;
	unsigned char *data = (unsigned char *)malloc(size);
	unsigned sum = 0;

	if (data == NULL)
		exit(1);
	for (i = 0; i < size; i++)
		data[i] = (unsigned char)i;
	for (i = 0; i < size; i += 4096)
		sum += data[i];
	printf("%u\n", sum);
	free(data);
	return 0;
}
