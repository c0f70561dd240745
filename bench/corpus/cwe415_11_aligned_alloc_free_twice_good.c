/* CWE-415 Double Free: GOOD, the fixed twin of
 * cwe415_11_aligned_alloc_free_twice_bad.c.
 * Bug there: memory from aligned_alloc is freed twice through a helper.
 * Fixed here: it is freed once.
 */
#include <stdio.h>
#include <stdlib.h>

static void release(void *p)
{
	free(p);
}

int main(void)
{
	double *data = (double *)aligned_alloc(64, 8 * sizeof(double));

	if (data == NULL)
		exit(1);
	data[0] = 1.5;
	printf("%.1f\n", data[0]);
	release(data);

	return 0;
}
