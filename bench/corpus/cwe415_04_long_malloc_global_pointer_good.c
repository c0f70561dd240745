/* CWE-415 Double Free: GOOD, the fixed twin of
 * cwe415_04_long_malloc_global_pointer_bad.c.
 * Bug there: a long array is freed by main and again by a cleanup function
 * through a global pointer that still holds it.
 * Fixed here: the global pointer is cleared after the first free.
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
	g_data = NULL;
	cleanup();
	return 0;
}
