/* A vectorised loop that keeps four sums in vector registers, for the tests
 * that check the report calls keep every register: some of its loads run
 * past the shorter third array. */
#ifndef SUMS_TEST_H
#define SUMS_TEST_H

#include <stdlib.h>

#define SUMS_N     64
#define SUMS_SHORT 6 /* the third array is this many elements short */

#define SUMS_BODY                                                                                  \
	double s0 = 0, s1 = 0, s2 = 0, s3 = 0;                                                     \
	for (int i = 0; i < n; i++) {                                                              \
		s0 += a[i] * b[i];                                                                 \
		s1 += a[i] * c[i];                                                                 \
		s2 += b[i] * c[i];                                                                 \
		s3 += a[i] + b[i] + c[i];                                                          \
	}                                                                                          \
	out[0] = s0;                                                                               \
	out[1] = s1;                                                                               \
	out[2] = s2;                                                                               \
	out[3] = s3;

static inline void sums_arrays(double **a, double **b, double **c)
{
	*a = malloc(SUMS_N * sizeof(double));
	*b = malloc(SUMS_N * sizeof(double));
	*c = malloc((SUMS_N - SUMS_SHORT) * sizeof(double));
	for (int i = 0; i < SUMS_N; i++) {
		(*a)[i] = i * 0.5;
		(*b)[i] = 100 - i;
	}
	for (int i = 0; i < SUMS_N - SUMS_SHORT; i++)
		(*c)[i] = i % 7;
}

#endif
