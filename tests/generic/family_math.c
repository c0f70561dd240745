// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// frexp, frexpf and frexpl (tests/generic/_family.h): the exponent they
// store, an int, on a heap, a stack and a global buffer exactly, then one
// byte short of it. The fraction is still answered when the store is bad.
// NOT: TEST FAILED
// STDOUT: 0.75 2
#include "_family.h"

#include <math.h>

static volatile double three = 3.0;

#define E ((int *)(b + over))

FAMILY_CASE_SIZED(frexp_exp, sizeof(int), "Write", , kasan_int_result = (long)(4 * frexp(three, E)), b + over, sizeof(int))
FAMILY_CASE_SIZED(frexpf_exp, sizeof(int), "Write", , kasan_int_result = (long)(4 * frexpf((float)three, E)), b + over, sizeof(int))
FAMILY_CASE_SIZED(frexpl_exp, sizeof(int), "Write", , kasan_int_result = (long)(4 * frexpl((long double)three, E)), b + over, sizeof(int))

int main(void)
{
	int e = 0;
	double f = frexp(three, &e);
	printf("%.2f %d\n", f, e);
	FAMILY_RUN(frexp_exp);
	FAMILY_RUN(frexpf_exp);
	FAMILY_RUN(frexpl_exp);
	return 0;
}
