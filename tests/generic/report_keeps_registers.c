// MODE: generic
// VARIANTS: gcc clang
// CFLAGS: -O2
// A vectorised loop keeps its sums in vector registers across the checks of
// every load. When some loads are out of bounds, the report calls happen in
// the middle of the loop and the program goes on (kasan.fault=report): the
// sums must come out as an uninstrumented copy of the loop computes them
// over the same memory. clang is told the report calls keep every register
// (clang_reports.h) and does not save its vector registers around them: the
// runtime must keep them.
// EXPECT: BUG: KASAN: slab-out-of-bounds in sums
// EXPECT-RE: ^Read of size (8|16) at addr [0-9a-f]{16} by task \S+/\d+$
// COUNT: 1 BUG: KASAN:
// STDOUT: same sums as the uninstrumented loop
#include "kasan_test.h"
#include "sums_test.h"

__attribute__((noinline)) static void sums(const double *a, const double *b, const double *c,
                                           int n, double *out)
{
	SUMS_BODY
}

__attribute__((noinline, no_sanitize("kernel-address"))) static void
reference(const double *a, const double *b, const double *c, int n, double *out)
{
	SUMS_BODY
}

int main(void)
{
	double *a, *b, *c, got[4], want[4];
	sums_arrays(&a, &b, &c);
	OPTIMIZER_HIDE_VAR(c);
	sums(a, b, c, SUMS_N, got);
	reference(a, b, c, SUMS_N, want);
	printf("%s\n", memcmp(got, want, sizeof(got)) ? "sums differ from the uninstrumented loop"
	                                               : "same sums as the uninstrumented loop");
	free(a);
	free(b);
	free(c);
	return 0;
}
