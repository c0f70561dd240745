/* A program for the ukasan symbolize checks: its code is only read, never
 * run. scale() is inlined into outer(), so an address in outer() has an
 * inlined frame. */
#include <stdio.h>
#include <stdlib.h>

static inline __attribute__((always_inline)) int scale(const int *p, int i)
{
	return p[i] * 3;
}

__attribute__((noinline)) int outer(const int *p, int i)
{
	int v = scale(p, i);
	printf("%d\n", v);
	return v + 1;
}

int main(int argc, char **argv)
{
	(void)argv;
	int *p = malloc(16);
	if (!p)
		return 1;
	p[0] = argc;
	int r = outer(p, argc - 1);
	free(p);
	return r;
}
