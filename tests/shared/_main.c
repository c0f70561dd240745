#include <stdio.h>
#include <string.h>

#include "sums_test.h"

void lib_sums(const double *a, const double *b, const double *c, int n, double *out);
void lib_reference(const double *a, const double *b, const double *c, int n, double *out);

int main(void)
{
	double *a, *b, *c, got[4], want[4];
	sums_arrays(&a, &b, &c);
	lib_sums(a, b, c, SUMS_N, got);
	lib_reference(a, b, c, SUMS_N, want);
	printf("%s\n", memcmp(got, want, sizeof(got)) ? "sums differ" : "same sums");
	free(a);
	free(b);
	free(c);
	return 0;
}
