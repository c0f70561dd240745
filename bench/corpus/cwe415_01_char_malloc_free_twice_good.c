/* CWE-415 Double Free: GOOD, the fixed twin of
 * cwe415_01_char_malloc_free_twice_bad.c.
 * Bug there: a malloc'd buffer is freed twice in a row.
 * Fixed here: it is freed once.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *data = (char *)malloc(100 * sizeof(char));

	if (data == NULL)
		exit(1);
	strcpy(data, "hello");
	printf("%s\n", data);
	free(data);
	data = NULL;
	return 0;
}
