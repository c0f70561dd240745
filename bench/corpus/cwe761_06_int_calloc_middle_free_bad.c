/* CWE-761 Free of Pointer not at Start of Buffer: BAD.
 * Bug: &values[5] of a calloc'd int array is freed.
 * Good twin: cwe761_06_int_calloc_middle_free_good.c
 */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	int *values = (int *)calloc(10, sizeof(int));
	int *second_half;

	if (values == NULL)
		exit(1);
	second_half = &values[5];
	second_half[0] = 5;
	printf("%d\n", values[5]);
	free(second_half);
	return 0;
}
