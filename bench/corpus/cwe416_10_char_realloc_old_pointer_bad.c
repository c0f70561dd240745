/* CWE-416 Use After Free: BAD.
 * Bug: the old pointer is written after realloc moved the buffer.
 * Good twin: cwe416_10_char_realloc_old_pointer_good.c
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
	data[0] = 'X';
	printf("%s\n", bigger);
	free(bigger);
	return 0;
}
