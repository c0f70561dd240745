// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// Lines and wide strings (tests/generic/_family.h): getline, getdelim and
// __getdelim given a buffer and its size, fgetws, fputws and their
// _unlocked forms, each on a heap, a stack and a global buffer exactly,
// then one byte past it. The fortified builds make the _chk calls.
// NOT: TEST FAILED
#include "_family_io.h"

static FILE *wzf, *wnf;

/* <stdio.h> makes getline an inline call of __getdelim in optimised code:
 * getline itself is what unoptimised code calls. */
static ssize_t (*volatile getline_fn)(char **, size_t *, FILE *) = getline;

/* The buffer getline may fill without growing it, as big as it says. */
#define LINE char *lp = b; size_t cap = n; FILE *f = fmemopen((void *)"x\n", 2, "r")
#define W ((wchar_t *)(b + over))
/* Whole wide characters: 4, one byte past the buffer when over. */
#define WN (int)(n / sizeof(wchar_t))

FAMILY_CASE(getline_buf, "Write", LINE, kasan_int_result = getline_fn(&lp, &cap, f), b, n)
FAMILY_CASE(getdelim_buf, "Write", LINE, kasan_int_result = getdelim(&lp, &cap, '\n', f), b, n)
FAMILY_CASE(getdelim_inner_buf, "Write", LINE, kasan_int_result = __getdelim(&lp, &cap, '\n', f), b, n)
FAMILY_CASE(fgetws_buf, "Write", , kasan_ptr_result = fgetws(W, WN, wzf), b + over, FAMILY_SIZE)
FAMILY_CASE(fgetws_unlocked_buf, "Write", , kasan_ptr_result = fgetws_unlocked(W, WN, wzf), b + over, FAMILY_SIZE)
FAMILY_CASE(fputws_str, "Read", family_wstring(W, FAMILY_SIZE), kasan_int_result = fputws(W, wnf), b + over, FAMILY_SIZE)
FAMILY_CASE(fputws_unlocked_str, "Read", family_wstring(W, FAMILY_SIZE), kasan_int_result = fputws_unlocked(W, wnf), b + over, FAMILY_SIZE)

int main(void)
{
	wzf = fopen("/dev/zero", "r");
	wnf = fopen("/dev/null", "w");
	if (!wzf || !wnf)
		kasan_test_fail("cannot open /dev/zero or /dev/null");
	FAMILY_RUN(getline_buf);
	FAMILY_RUN(getdelim_buf);
	FAMILY_RUN(getdelim_inner_buf);
	FAMILY_RUN(fgetws_buf);
	FAMILY_RUN(fgetws_unlocked_buf);
	FAMILY_RUN(fputws_str);
	FAMILY_RUN(fputws_unlocked_str);
	return 0;
}
