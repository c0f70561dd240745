/* CWE-416 Use After Free: GOOD, the fixed twin of
 * cwe416_16_char_malloc_snprintf_into_freed_bad.c.
 * Bug there: snprintf formats into a malloc'd buffer after free.
 * Fixed here: the buffer is freed after formatting.
 */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	char *line = (char *)malloc(64);
	int n;

	if (line == NULL)
		exit(1);
	n = snprintf(line, 64, "%d items", 3);
	free(line);
	printf("%d\n", n);
	return 0;
}
