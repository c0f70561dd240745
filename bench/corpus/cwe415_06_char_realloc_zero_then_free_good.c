/* CWE-415 Double Free: GOOD, the fixed twin of
 * cwe415_06_char_realloc_zero_then_free_bad.c.
 * Bug there: realloc(p, 0), which frees p in glibc and returns NULL, is
 * followed by free(p).
 * Fixed here: the buffer is freed with free() alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(void)
{
	char *data = (char *)malloc(32);
	char *result;

	if (data == NULL)
		exit(1);
	strcpy(data, "temporary");
	printf("%s\n", data);
	result = NULL;
	free(data);
	printf("%p\n", (void *)result);
	return 0;
}
