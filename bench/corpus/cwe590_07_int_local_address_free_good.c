/* CWE-590 Free of Memory not on the Heap: GOOD, the fixed twin of
 * cwe590_07_int_local_address_free_bad.c.
 * Bug there: the address of a local int is passed to free().
 * Fixed here: the int is malloc'd.
 */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	int *count;
	count = (int *)malloc(sizeof(int));
	if (count == NULL)
		exit(1);
	*count = 0;
	(*count)++;
	printf("%d\n", *count);
	free(count);
	return 0;
}
