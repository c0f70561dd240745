/* CWE-415 Double Free: BAD.
 * Bug: the old pointer is freed after realloc has moved the buffer (realloc
 * already freed it).
 * Good twin: cwe415_05_char_realloc_free_old_good.c
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *data = (char *)malloc(16);
	char *bigger;

	if (data == NULL)
		exit(1);
	strcpy(data, "small");
	bigger = (char *)realloc(data, 4096);
	if (bigger == NULL) {
		free(data);
		exit(1);
	}
	strcat(bigger, " and bigger");
	printf("%s\n", bigger);
	free(data);
	free(bigger);
	return 0;
}
