/* CWE-415 Double Free: BAD.
 * Bug: a long array is freed by main and again by a cleanup function
 * through a global pointer that still holds it.
 * Good twin: cwe415_04_long_malloc_global_pointer_good.c
 */
#include <stdio.h>
#include <stdlib.h>

long *g_data;

static void cleanup(void)
{
	free(g_data);
}

int main(void)
{
	g_data = (long *)malloc(4 * sizeof(long));
	if (g_data == NULL)
		exit(1);
	g_data[0] = 5L;
	printf("%ld\n", g_data[0]);
	free(g_data);

	cleanup();
	return 0;
}
