/* The native code under test in check_buildtools.sh's C projects: 0..n-1
 * copied into a heap buffer and added up. Built with -DBUG it writes one
 * element past the end. */
#include <stdlib.h>

#include "sum.h"

#ifdef BUG
#define EXTRA 1
#else
#define EXTRA 0
#endif

long sum(long n)
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
