/* CWE-416 Use After Free: GOOD, the fixed twin of
 * cwe416_10_char_realloc_old_pointer_bad.c.
 * Bug there: the old pointer is written after realloc moved the buffer.
 * Fixed here: the pointer realloc returned is used.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *data = (char *)malloc(8);
	char *bigger;

	if (data == NULL)
		exit(1);
	strcpy(data, "abc");
	bigger = (char *)realloc(data, 4096);
	if (bigger == NULL)
		exit(1);
	data = bigger;
	data[0] = 'X';
	printf("%s\n", bigger);
	free(bigger);
	return 0;
}
