/* An instrumented shared library: the sums loop, and the same loop
 * uninstrumented for comparison. */
#include "sums_test.h"

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
