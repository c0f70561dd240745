// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// The forms that take their locale (tests/generic/_family.h): strcasecmp_l,
// strncasecmp_l, wcscasecmp_l and wcsncasecmp_l (both strings, to the first
// difference in the locale's case mapping), strxfrm_l and wcsxfrm_l
// (source, destination), each reading and (where it writes) writing a heap,
// a stack and a global buffer exactly, then one byte (one wchar_t,
// FAMILY_WN) past it.
// NOT: TEST FAILED
#include "_family_str.h"

#include <locale.h>
#include <string.h>
#include <strings.h>

static locale_t loc;

FAMILY_CASE(strcasecmp_l_read, "Read", family_str(b, n, 'a'); family_str(family_big, n, 'A'), kasan_int_result = strcasecmp_l(b, family_big, loc), b, n)
FAMILY_CASE(strcasecmp_l_second_read, "Read", family_str(b, n, 'a'); family_str(family_big, n, 'A'), kasan_int_result = strcasecmp_l(family_big, b, loc), b, n)
FAMILY_CASE(strncasecmp_l_read, "Read", family_fill(b, n, 'A'); family_fill(family_big, n, 'a'), kasan_int_result = strncasecmp_l(family_big, b, n, loc), b, n)
FAMILY_CASE(wcscasecmp_l_read, "Read", family_wstr(b, FAMILY_WN, L'a'); family_wstr(family_wbig, FAMILY_WN, L'A'), kasan_int_result = wcscasecmp_l((wchar_t *)b, family_wbig, loc), b, FAMILY_WBYTES)
FAMILY_CASE(wcsncasecmp_l_read, "Read", family_wfill(b, FAMILY_WN, L'A'); family_wfill(family_wbig, FAMILY_WN, L'a'), kasan_int_result = wcsncasecmp_l(family_wbig, (wchar_t *)b, FAMILY_WN, loc), b, FAMILY_WBYTES)
FAMILY_CASE(strxfrm_l_write, "Write", family_str(family_big, n, 'a'), kasan_int_result = strxfrm_l(b, family_big, n, loc), b, n)
FAMILY_CASE(strxfrm_l_read, "Read", family_str(b, n, 'a'), kasan_int_result = strxfrm_l(family_big, b, sizeof(family_big), loc), b, n)
FAMILY_CASE(wcsxfrm_l_write, "Write", family_wstr(family_wbig, FAMILY_WN, L'a'), kasan_int_result = wcsxfrm_l((wchar_t *)b, family_wbig, FAMILY_WN, loc), b, FAMILY_WBYTES)
FAMILY_CASE(wcsxfrm_l_read, "Read", family_wstr(b, FAMILY_WN, L'a'), kasan_int_result = wcsxfrm_l(family_wbig, (wchar_t *)b, 64, loc), b, FAMILY_WBYTES)

int main(void)
{
	if (!(loc = newlocale(LC_ALL_MASK, "C.UTF-8", 0)))
		kasan_test_fail("no C.UTF-8 locale");
	FAMILY_RUN(strcasecmp_l_read);
	FAMILY_RUN(strcasecmp_l_second_read);
	FAMILY_RUN(strncasecmp_l_read);
	FAMILY_RUN(wcscasecmp_l_read);
	FAMILY_RUN(wcsncasecmp_l_read);
	FAMILY_RUN(strxfrm_l_write);
	FAMILY_RUN(strxfrm_l_read);
	FAMILY_RUN(wcsxfrm_l_write);
	FAMILY_RUN(wcsxfrm_l_read);
	return 0;
}
