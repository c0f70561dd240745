/* CWE-416 Use After Free: BAD.
 * Bug: snprintf formats into a malloc'd buffer after free.
 * Good twin: cwe416_16_char_malloc_snprintf_into_freed_good.c
 */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	char *line = (char *)malloc(64);
	int n;

	if (line == NULL)
		exit(1);
	free(line);
	n = snprintf(line, 64, "%d items", 3);
	printf("%d\n", n);
	return 0;
}
