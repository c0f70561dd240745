/* CWE-122 Heap-based Buffer Overflow: GOOD, the fixed twin of
 * cwe122_30_char_malloc_fgets_bad.c.
 * Bug there: fgets() is told a 10-byte malloc'd buffer holds 100 bytes, and
 * the input line (a fixed text read through fmemopen) is longer than the
 * buffer.
 * Fixed here: fgets() is given the buffer's real size.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	size_t size = 10;
	char *data = (char *)malloc(size);
	static char input[] = "an input line that is longer than the buffer it is read into, by far\n";
	FILE *f = fmemopen(input, sizeof(input) - 1, "r");

	if (data == NULL || f == NULL)
		exit(1);
	if (fgets(data, (int)size, f) == NULL)
		data[0] = '\0';
	fclose(f);
	printf("%zu\n", strlen(data));
	free(data);
	return 0;
}
