/* CWE-122 Heap-based Buffer Overflow: GOOD, the fixed twin of
 * cwe122_18_char_malloc_memcpy_off_by_one_bad.c.
 * Bug there: memcpy copies a 10-character string and its terminator into a
 * 10-byte malloc'd buffer (CWE-193).
 * Fixed here: the buffer has 10 + 1 bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SRC_STRING "AAAAAAAAAA"

int main(void)
{
	char *data = (char *)malloc(10 + 1 * sizeof(char));
	char source[10 + 1] = SRC_STRING;

	if (data == NULL)
		exit(1);
	memcpy(data, source, (strlen(source) + 1) * sizeof(char));
	printf("%s\n", data);
	free(data);
	return 0;
}
