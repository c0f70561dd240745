/* A library linked at 0x3600000000 (check_prelink.sh): a global and a heap
 * object of its own, each overflowed by one element on request. */
#include <stdlib.h>

int G[10];

int *getG(void)
{
	return G;
}

int global_overflow(int i)
{
	volatile int *g = G;
	return g[i];
}

int heap_overflow(int i)
{
	int *volatile p = malloc(10 * sizeof(int));
	int v = p[i];
	free(p);
	return v;
}
