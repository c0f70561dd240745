/* CWE-415 Double Free: BAD.
 * Bug: memory from aligned_alloc is freed twice through a helper.
 * Good twin: cwe415_11_aligned_alloc_free_twice_good.c
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
	release(data);
	return 0;
}
