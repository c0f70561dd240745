/* CWE-590 Free of Memory not on the Heap: BAD.
 * Bug: the address of a local int is passed to free().
 * Good twin: cwe590_07_int_local_address_free_good.c
 */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	int *count;
	int local_count = 0;
	count = &local_count;
	(*count)++;
	printf("%d\n", *count);
	free(count);
	return 0;
}
