// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// The collations and version comparison (tests/generic/_family.h): strcoll,
// wcscoll, strverscmp, strcoll_l and wcscoll_l, each reading both strings
// whole whatever their first difference (as AddressSanitizer checks them):
// a string on a heap, a stack and a global buffer, first or second, that
// differs from the other at its first character, exactly, then one byte
// (one wchar_t, FAMILY_WN) past it.
// NOT: TEST FAILED
#include "_family_str.h"

#include <locale.h>
#include <string.h>

static locale_t loc;

FAMILY_CASE(strcoll_read, "Read", family_str(b, n, 'a'), kasan_int_result = strcoll(b, "b"), b, n)
FAMILY_CASE(strcoll_second_read, "Read", family_str(b, n, 'a'), kasan_int_result = strcoll("b", b), b, n)
FAMILY_CASE(wcscoll_read, "Read", family_wstr(b, FAMILY_WN, L'a'), kasan_int_result = wcscoll((wchar_t *)b, L"b"), b, FAMILY_WBYTES)
FAMILY_CASE(wcscoll_second_read, "Read", family_wstr(b, FAMILY_WN, L'a'), kasan_int_result = wcscoll(L"b", (wchar_t *)b), b, FAMILY_WBYTES)
FAMILY_CASE(strverscmp_read, "Read", family_str(b, n, '1'), kasan_int_result = strverscmp(b, "2"), b, n)
FAMILY_CASE(strverscmp_second_read, "Read", family_str(b, n, 'a'), kasan_int_result = strverscmp("b", b), b, n)
FAMILY_CASE(strcoll_l_read, "Read", family_str(b, n, 'a'), kasan_int_result = strcoll_l(b, "b", loc), b, n)
FAMILY_CASE(strcoll_l_second_read, "Read", family_str(b, n, 'a'), kasan_int_result = strcoll_l("b", b, loc), b, n)
FAMILY_CASE(wcscoll_l_read, "Read", family_wstr(b, FAMILY_WN, L'a'), kasan_int_result = wcscoll_l((wchar_t *)b, L"b", loc), b, FAMILY_WBYTES)
FAMILY_CASE(wcscoll_l_second_read, "Read", family_wstr(b, FAMILY_WN, L'a'), kasan_int_result = wcscoll_l(L"b", (wchar_t *)b, loc), b, FAMILY_WBYTES)

int main(void)
{
	/* A locale that is not the C locale, for the plain forms and the _l. */
	if (!setlocale(LC_ALL, "C.UTF-8") || !(loc = newlocale(LC_ALL_MASK, "C.UTF-8", 0)))
		kasan_test_fail("no C.UTF-8 locale");
	FAMILY_RUN(strcoll_read);
	FAMILY_RUN(strcoll_second_read);
	FAMILY_RUN(wcscoll_read);
	FAMILY_RUN(wcscoll_second_read);
	FAMILY_RUN(strverscmp_read);
	FAMILY_RUN(strverscmp_second_read);
	FAMILY_RUN(strcoll_l_read);
	FAMILY_RUN(strcoll_l_second_read);
	FAMILY_RUN(wcscoll_l_read);
	FAMILY_RUN(wcscoll_l_second_read);
	return 0;
}
