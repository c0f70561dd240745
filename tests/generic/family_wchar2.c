// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// The wide-character memory functions and comparisons
// (tests/generic/_family.h): wmemcpy, wmemmove, wmemset, wmemcmp, wmemchr,
// wcscmp, wcsncmp, wcschr and wcsrchr, each reading and (where it writes)
// writing a heap, a stack and a global buffer exactly, then one wchar_t past
// it (FAMILY_WN).
// NOT: TEST FAILED
#include "_family_str.h"

FAMILY_CASE(wmemcpy_write, "Write", , kasan_ptr_result = wmemcpy((wchar_t *)b, family_wbig, FAMILY_WN), b, FAMILY_WBYTES)
FAMILY_CASE(wmemcpy_read, "Read", , kasan_ptr_result = wmemcpy(family_wbig, (wchar_t *)b, FAMILY_WN), b, FAMILY_WBYTES)
FAMILY_CASE(wmemmove_write, "Write", , kasan_ptr_result = wmemmove((wchar_t *)b, family_wbig, FAMILY_WN), b, FAMILY_WBYTES)
FAMILY_CASE(wmemmove_read, "Read", , kasan_ptr_result = wmemmove(family_wbig, (wchar_t *)b, FAMILY_WN), b, FAMILY_WBYTES)
FAMILY_CASE(wmemset_write, "Write", , kasan_ptr_result = wmemset((wchar_t *)b, L'x', FAMILY_WN), b, FAMILY_WBYTES)
FAMILY_CASE(wmemcmp_read, "Read", family_wfill(b, FAMILY_WN, L'a'); family_wfill(family_wbig, FAMILY_WN, L'a'), kasan_int_result = wmemcmp((wchar_t *)b, family_wbig, FAMILY_WN), b, FAMILY_WBYTES)
FAMILY_CASE(wmemchr_read, "Read", family_wfill(b, FAMILY_WN, L'a'), kasan_ptr_result = wmemchr((wchar_t *)b, L'z', FAMILY_WN), b, FAMILY_WBYTES)
FAMILY_CASE(wcscmp_read, "Read", family_wstr(b, FAMILY_WN, L'a'); family_wstr(family_wbig, FAMILY_WN, L'a'), kasan_int_result = wcscmp((wchar_t *)b, family_wbig), b, FAMILY_WBYTES)
FAMILY_CASE(wcsncmp_read, "Read", family_wfill(b, FAMILY_WN, L'a'); family_wfill(family_wbig, FAMILY_WN, L'a'), kasan_int_result = wcsncmp(family_wbig, (wchar_t *)b, FAMILY_WN), b, FAMILY_WBYTES)
FAMILY_CASE(wcschr_read, "Read", family_wstr(b, FAMILY_WN, L'a'), kasan_ptr_result = wcschr((wchar_t *)b, L'z'), b, FAMILY_WBYTES)
FAMILY_CASE(wcsrchr_read, "Read", family_wstr(b, FAMILY_WN, L'a'), kasan_ptr_result = wcsrchr((wchar_t *)b, L'a'), b, FAMILY_WBYTES)

int main(void)
{
	FAMILY_RUN(wmemcpy_write);
	FAMILY_RUN(wmemcpy_read);
	FAMILY_RUN(wmemmove_write);
	FAMILY_RUN(wmemmove_read);
	FAMILY_RUN(wmemset_write);
	FAMILY_RUN(wmemcmp_read);
	FAMILY_RUN(wmemchr_read);
	FAMILY_RUN(wcscmp_read);
	FAMILY_RUN(wcsncmp_read);
	FAMILY_RUN(wcschr_read);
	FAMILY_RUN(wcsrchr_read);
	return 0;
}
