#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void lib_sums(const double *a, const double *b, const double *c, int n, double *out);
void lib_reference(const double *a, const double *b, const double *c, int n, double *out);

int main(void)
{
	enum { N = 64 };
	double *a = malloc(N * sizeof(double)), *b = malloc(N * sizeof(double));
	double *volatile c = malloc((N - 6) * sizeof(double)); /* 6 elements short */
	for (int i = 0; i < N; i++) {
		a[i] = i * 0.5;
		b[i] = 100 - i;
	}
	for (int i = 0; i < N - 6; i++)
		c[i] = i % 7;
	double got[4], want[4];
	lib_sums(a, b, c, N, got);
	lib_reference(a, b, c, N, want);
	printf("%s\n", memcmp(got, want, sizeof(got)) ? "sums differ" : "same sums");
	free(a);
	free(b);
	free(c);
	return 0;
}
