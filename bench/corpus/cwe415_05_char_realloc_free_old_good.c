/* CWE-415 Double Free: GOOD, the fixed twin of
 * cwe415_05_char_realloc_free_old_bad.c.
 * Bug there: the old pointer is freed after realloc has moved the buffer
 * (realloc already freed it).
 * Fixed here: only the pointer realloc returned is freed.
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

	free(bigger);
	return 0;
}
