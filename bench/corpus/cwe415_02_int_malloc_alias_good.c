/* CWE-415 Double Free: GOOD, the fixed twin of
 * cwe415_02_int_malloc_alias_bad.c.
 * Bug there: an int array is freed through one pointer and again through an
 * alias.
 * Fixed here: only the owner frees it.
 */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	int *data = (int *)malloc(10 * sizeof(int));
	int *alias;
	int i;

	if (data == NULL)
		exit(1);
	for (i = 0; i < 10; i++)
		data[i] = i;
	alias = data;
	printf("%d\n", alias[9]);
	free(data);
	alias = NULL;
	return 0;
}
