/* CWE-122 Heap-based Buffer Overflow: BAD.
 * Bug: fread() reads 100 bytes (from /dev/zero) into a 50-byte malloc'd
 * buffer.
 * Good twin: cwe122_32_char_malloc_fread_good.c
 */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	size_t size = 50;
	char *data = (char *)malloc(size);
	size_t n;
	FILE *f = fopen("/dev/zero", "rb");

	if (data == NULL || f == NULL)
		exit(1);
	n = fread(data, 1, 100, f);
	fclose(f);
	printf("%zu %d\n", n, data[0]);
	free(data);
	return 0;
}
