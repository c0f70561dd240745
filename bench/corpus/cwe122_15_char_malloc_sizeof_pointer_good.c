/* CWE-122 Heap-based Buffer Overflow: GOOD, the fixed twin of
 * cwe122_15_char_malloc_sizeof_pointer_bad.c.
 * Bug there: malloc(sizeof(data)) allocates the size of a pointer (8
 * bytes), and a 19-character string is copied into it.
 * Fixed here: the allocation is strlen + 1 bytes.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	const char *source = "a string of 19 char";
	char *data = (char *)malloc(strlen(source) + 1);

	if (data == NULL)
		exit(1);
	strcpy(data, source);
	printf("%s\n", data);
	free(data);
	return 0;
}
