/* CWE-761 Free of Pointer not at Start of Buffer: GOOD, the fixed twin of
 * cwe761_06_int_calloc_middle_free_bad.c.
 * Bug there: &values[5] of a calloc'd int array is freed.
 * Fixed here: &values[0] is freed.
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
	free(values);
	return 0;
}
