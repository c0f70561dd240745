/* CWE-122 Heap-based Buffer Overflow: BAD.
 * Bug: after strncpy of n bytes into an n-byte malloc'd buffer, the
 * terminator is written at index n.
 * Good twin: cwe122_19_char_malloc_strncpy_terminator_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	size_t n = 16;
	const char *source = "a source string longer than sixteen";
	char *data = (char *)malloc(n);

	if (data == NULL)
		exit(1);
	strncpy(data, source, n);
	data[n] = '\0';
	printf("%s\n", data);
	free(data);
	return 0;
}
