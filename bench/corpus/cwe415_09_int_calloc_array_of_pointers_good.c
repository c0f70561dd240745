/* CWE-415 Double Free: GOOD, the fixed twin of
 * cwe415_09_int_calloc_array_of_pointers_bad.c.
 * Bug there: an array of pointers holds the same calloc'd block twice, and
 * the cleanup loop frees every entry.
 * Fixed here: each entry points to its own block.
 */
#include <stdio.h>
#include <stdlib.h>

int main(void)
{
	int *slots[3];
	int i;

	slots[0] = (int *)calloc(4, sizeof(int));
	slots[1] = (int *)calloc(4, sizeof(int));
	slots[2] = (int *)calloc(4, sizeof(int));
	if (slots[0] == NULL || slots[1] == NULL || slots[2] == NULL)
		exit(1);
	slots[2][0] = 3;
	printf("%d\n", slots[0][0] + slots[2][0]);
	for (i = 0; i < 3; i++)
		free(slots[i]);
	return 0;
}
