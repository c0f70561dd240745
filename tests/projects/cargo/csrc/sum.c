/* Copies 0..n-1 into a heap buffer and adds them up; built with -DBUG it
 * writes one element past the end. */
#include <stdlib.h>

#ifdef BUG
#define EXTRA 1
#else
#define EXTRA 0
#endif

long c_sum(long n)
{
	volatile int *a = malloc(n * sizeof(int));
	long s = 0;
	if (!a)
		return -1;
	for (long i = 0; i < n + EXTRA; i++)
		a[i] = (int)i;
	for (long i = 0; i < n; i++)
		s += a[i];
	free((void *)a);
	return s;
}
