/* An instrumented shared library: a vectorised loop whose loads run past one
 * of its arrays, and the same loop uninstrumented, for comparison. */
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

__attribute__((noinline)) void lib_sums(const double *a, const double *b, const double *c, int n,
                                        double *out)
{
	SUMS_BODY
}

__attribute__((noinline, no_sanitize("kernel-address"))) void
lib_reference(const double *a, const double *b, const double *c, int n, double *out)
{
	SUMS_BODY
}
