/* CWE-415 Double Free: BAD.
 * Bug: an int array is freed through one pointer and again through an
 * alias.
 * Good twin: cwe415_02_int_malloc_alias_good.c
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
	free(alias);
	return 0;
}
