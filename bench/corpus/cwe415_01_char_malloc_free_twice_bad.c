/* CWE-415 Double Free: BAD.
 * Bug: a malloc'd buffer is freed twice in a row.
 * Good twin: cwe415_01_char_malloc_free_twice_good.c
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
	free(data);
	return 0;
}
