// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// The wide-character spans, searches and case-blind comparisons
// (tests/generic/_family.h): wcsspn, wcscspn and wcspbrk (string and set),
// wcsstr (haystack and needle), wcswcs, wcschrnul, wcscasecmp and
// wcsncasecmp, each reading a heap, a stack and a global buffer exactly, then
// one wchar_t past it (FAMILY_WN).
// NOT: TEST FAILED
#include "_family_str.h"

FAMILY_CASE(wcsspn_read, "Read", family_wstr(b, FAMILY_WN, L'a'), kasan_int_result = wcsspn((wchar_t *)b, L"a"), b, FAMILY_WBYTES)
FAMILY_CASE(wcsspn_set_read, "Read", family_wstr(b, FAMILY_WN, L'a'), kasan_int_result = wcsspn(family_wbig, (wchar_t *)b), b, FAMILY_WBYTES)
FAMILY_CASE(wcscspn_read, "Read", family_wstr(b, FAMILY_WN, L'a'), kasan_int_result = wcscspn((wchar_t *)b, L";,"), b, FAMILY_WBYTES)
FAMILY_CASE(wcscspn_set_read, "Read", family_wstr(b, FAMILY_WN, L'a'), kasan_int_result = wcscspn(family_wbig, (wchar_t *)b), b, FAMILY_WBYTES)
FAMILY_CASE(wcspbrk_read, "Read", family_wstr(b, FAMILY_WN, L'a'), kasan_ptr_result = wcspbrk((wchar_t *)b, L";,"), b, FAMILY_WBYTES)
FAMILY_CASE(wcspbrk_set_read, "Read", family_wstr(b, FAMILY_WN, L'a'), kasan_ptr_result = wcspbrk(family_wbig, (wchar_t *)b), b, FAMILY_WBYTES)
FAMILY_CASE(wcsstr_read, "Read", family_wstr(b, FAMILY_WN, L'a'), kasan_ptr_result = wcsstr((wchar_t *)b, L"ab"), b, FAMILY_WBYTES)
FAMILY_CASE(wcsstr_needle_read, "Read", family_wstr(b, FAMILY_WN, L'a'), kasan_ptr_result = wcsstr(family_wbig, (wchar_t *)b), b, FAMILY_WBYTES)
FAMILY_CASE(wcswcs_read, "Read", family_wstr(b, FAMILY_WN, L'a'), kasan_ptr_result = wcswcs((wchar_t *)b, L"ab"), b, FAMILY_WBYTES)
FAMILY_CASE(wcschrnul_read, "Read", family_wstr(b, FAMILY_WN, L'a'), kasan_ptr_result = wcschrnul((wchar_t *)b, L'z'), b, FAMILY_WBYTES)
FAMILY_CASE(wcscasecmp_read, "Read", family_wstr(b, FAMILY_WN, L'a'); family_wstr(family_wbig, FAMILY_WN, L'A'), kasan_int_result = wcscasecmp((wchar_t *)b, family_wbig), b, FAMILY_WBYTES)
FAMILY_CASE(wcsncasecmp_read, "Read", family_wfill(b, FAMILY_WN, L'A'); family_wfill(family_wbig, FAMILY_WN, L'a'), kasan_int_result = wcsncasecmp(family_wbig, (wchar_t *)b, FAMILY_WN), b, FAMILY_WBYTES)

int main(void)
{
	FAMILY_RUN(wcsspn_read);
	FAMILY_RUN(wcsspn_set_read);
	FAMILY_RUN(wcscspn_read);
	FAMILY_RUN(wcscspn_set_read);
	FAMILY_RUN(wcspbrk_read);
	FAMILY_RUN(wcspbrk_set_read);
	FAMILY_RUN(wcsstr_read);
	FAMILY_RUN(wcsstr_needle_read);
	FAMILY_RUN(wcswcs_read);
	FAMILY_RUN(wcschrnul_read);
	FAMILY_RUN(wcscasecmp_read);
	FAMILY_RUN(wcsncasecmp_read);
	return 0;
}
