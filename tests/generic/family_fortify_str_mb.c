// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// The fortified multibyte conversions called by name (tests/generic/_family.h):
// __mbstowcs_chk, __wcstombs_chk, __mbsrtowcs_chk, __wcsrtombs_chk,
// __mbsnrtowcs_chk, __wcsnrtombs_chk, __wctomb_chk and __wcrtomb_chk, each
// writing a heap, a stack and a global buffer exactly, then one byte (or
// wchar_t) past it, in the C.UTF-8 locale.
// glibc's object-size check gets the object's size in the fortified builds,
// where it aborts the call one byte past after the report, and no size
// (SIZE_MAX) in the others. The calls go through a pointer, so that the
// compilers do not fold them into the plain functions.
// __wctomb_chk and __wcrtomb_chk want room for MB_CUR_MAX bytes whatever the
// character: told 16 in bounds, and 1 past it in the fortified builds.
// NOT: TEST FAILED
#include "_family_str.h"

#include <locale.h>

/* The destination's size for glibc's check, in the units it counts. */
#define CHK(size) (FAMILY_FORTIFIED ? (size_t)(size) : (size_t)-1)

/* The room a character conversion is told it has. */
#define CHAR_ROOM (FAMILY_FORTIFIED && over ? (size_t)1 : (size_t)16)

size_t __mbstowcs_chk(wchar_t *d, const char *s, size_t len, size_t dlen);
size_t __wcstombs_chk(char *d, const wchar_t *s, size_t len, size_t dlen);
size_t __mbsrtowcs_chk(wchar_t *d, const char **s, size_t len, mbstate_t *ps, size_t dlen);
size_t __wcsrtombs_chk(char *d, const wchar_t **s, size_t len, mbstate_t *ps, size_t dlen);
size_t __mbsnrtowcs_chk(wchar_t *d, const char **s, size_t nms, size_t len, mbstate_t *ps,
                        size_t dlen);
size_t __wcsnrtombs_chk(char *d, const wchar_t **s, size_t nwc, size_t len, mbstate_t *ps,
                        size_t dlen);
int __wctomb_chk(char *s, wchar_t wc, size_t buflen);
size_t __wcrtomb_chk(char *s, wchar_t wc, mbstate_t *ps, size_t buflen);

FAMILY_CASE(mbstowcs_chk_write, "Write", family_str(family_big, FAMILY_SIZE / sizeof(wchar_t) + 1, 'a'), kasan_int_result = FAMILY_HIDDEN(__mbstowcs_chk)((wchar_t *)b, family_big, FAMILY_WN, CHK(FAMILY_SIZE / sizeof(wchar_t))), b, FAMILY_WBYTES)
FAMILY_CASE(wcstombs_chk_write, "Write", family_wstr(family_wbig, n, L'a'), kasan_int_result = FAMILY_HIDDEN(__wcstombs_chk)(b, family_wbig, n, CHK(FAMILY_SIZE)), b, n)
FAMILY_CASE(mbsrtowcs_chk_write, "Write", family_str(family_big, FAMILY_SIZE / sizeof(wchar_t) + 1, 'a'); const char *p = family_big, kasan_int_result = FAMILY_HIDDEN(__mbsrtowcs_chk)((wchar_t *)b, &p, FAMILY_WN, NULL, CHK(FAMILY_SIZE / sizeof(wchar_t))), b, FAMILY_WBYTES)
FAMILY_CASE(wcsrtombs_chk_write, "Write", family_wstr(family_wbig, n, L'a'); const wchar_t *p = family_wbig, kasan_int_result = FAMILY_HIDDEN(__wcsrtombs_chk)(b, &p, n, NULL, CHK(FAMILY_SIZE)), b, n)
FAMILY_CASE(mbsnrtowcs_chk_write, "Write", family_str(family_big, FAMILY_SIZE / sizeof(wchar_t) + 1, 'a'); const char *p = family_big, kasan_int_result = FAMILY_HIDDEN(__mbsnrtowcs_chk)((wchar_t *)b, &p, 64, FAMILY_WN, NULL, CHK(FAMILY_SIZE / sizeof(wchar_t))), b, FAMILY_WBYTES)
FAMILY_CASE(wcsnrtombs_chk_write, "Write", family_wfill(family_wbig, n, L'a'); const wchar_t *p = family_wbig, kasan_int_result = FAMILY_HIDDEN(__wcsnrtombs_chk)(b, &p, n, n, NULL, CHK(FAMILY_SIZE)), b, n)
FAMILY_CASE(wctomb_chk_write, "Write", , kasan_int_result = FAMILY_HIDDEN(__wctomb_chk)(b + n - 2, 0xe9, CHAR_ROOM), b + n - 2, 2)
FAMILY_CASE(wcrtomb_chk_write, "Write", , kasan_int_result = FAMILY_HIDDEN(__wcrtomb_chk)(b + n - 2, 0xe9, NULL, CHAR_ROOM), b + n - 2, 2)

int main(void)
{
	if (!setlocale(LC_ALL, "C.UTF-8"))
		kasan_test_fail("no C.UTF-8 locale");
	FAMILY_RUN(mbstowcs_chk_write);
	FAMILY_RUN(wcstombs_chk_write);
	FAMILY_RUN(mbsrtowcs_chk_write);
	FAMILY_RUN(wcsrtombs_chk_write);
	FAMILY_RUN(mbsnrtowcs_chk_write);
	FAMILY_RUN(wcsnrtombs_chk_write);
	FAMILY_RUN(wctomb_chk_write);
	FAMILY_RUN(wcrtomb_chk_write);
	return 0;
}
