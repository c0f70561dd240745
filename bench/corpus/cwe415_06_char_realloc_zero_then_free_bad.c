/* CWE-415 Double Free: BAD.
 * Bug: realloc(p, 0), which frees p in glibc and returns NULL, is followed
 * by free(p).
 * Good twin: cwe415_06_char_realloc_zero_then_free_good.c
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
	result = (char *)realloc(data, 0);
	if (result == NULL)
		free(data);
	else
		free(result);
	printf("%p\n", (void *)result);
	return 0;
}
