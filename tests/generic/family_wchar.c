// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// The wide-character string copies (tests/generic/_family.h): wcslen,
// wcsnlen, wcscpy, wcsncpy, wcscat (its destination is read too), wcsncat
// and wcsdup, each reading and (where it writes) writing a heap, a stack and
// a global buffer exactly, then one wchar_t past it (FAMILY_WN).
// NOT: TEST FAILED
#include "_family_str.h"

FAMILY_CASE(wcslen_read, "Read", family_wstr(b, FAMILY_WN, L'a'), kasan_int_result = wcslen((wchar_t *)b), b, FAMILY_WBYTES)
FAMILY_CASE(wcsnlen_read, "Read", family_wfill(b, FAMILY_WN, L'a'), kasan_int_result = wcsnlen((wchar_t *)b, FAMILY_WN), b, FAMILY_WBYTES)
FAMILY_CASE(wcscpy_write, "Write", family_wstr(family_wbig, FAMILY_WN, L'a'), kasan_ptr_result = wcscpy((wchar_t *)b, family_wbig), b, FAMILY_WBYTES)
FAMILY_CASE(wcscpy_read, "Read", family_wstr(b, FAMILY_WN, L'a'), kasan_ptr_result = wcscpy(family_wbig, (wchar_t *)b), b, FAMILY_WBYTES)
FAMILY_CASE(wcsncpy_write, "Write", , kasan_ptr_result = wcsncpy((wchar_t *)b, family_wbig, FAMILY_WN), b, FAMILY_WBYTES)
FAMILY_CASE(wcsncpy_read, "Read", family_wfill(b, FAMILY_WN, L'a'), kasan_ptr_result = wcsncpy(family_wbig, (wchar_t *)b, FAMILY_WN), b, FAMILY_WBYTES)
FAMILY_CASE(wcscat_write, "Write", family_wstr(b, 2, L'a'); family_wstr(family_wbig, FAMILY_WN - 1, L'b'), kasan_ptr_result = wcscat((wchar_t *)b, family_wbig), b + sizeof(wchar_t), FAMILY_WBYTES - sizeof(wchar_t))
FAMILY_CASE(wcscat_read, "Read", family_wstr(b, FAMILY_WN, L'a'), kasan_ptr_result = wcscat(family_wbig, (wchar_t *)b), b, FAMILY_WBYTES)
FAMILY_CASE(wcscat_dest_read, "Read", family_wstr(b, FAMILY_WN, L'a'), kasan_ptr_result = wcscat((wchar_t *)b, family_wbig), b, FAMILY_WBYTES)
FAMILY_CASE(wcsncat_write, "Write", family_wstr(b, 2, L'a'); family_wfill(family_wbig, FAMILY_WN - 2, L'b'), kasan_ptr_result = wcsncat((wchar_t *)b, family_wbig, FAMILY_WN - 2), b + sizeof(wchar_t), FAMILY_WBYTES - sizeof(wchar_t))
FAMILY_CASE(wcsncat_read, "Read", family_wfill(b, FAMILY_WN, L'a'), kasan_ptr_result = wcsncat(family_wbig, (wchar_t *)b, FAMILY_WN), b, FAMILY_WBYTES)
FAMILY_CASE(wcsdup_read, "Read", family_wstr(b, FAMILY_WN, L'a'), free(kasan_ptr_result = wcsdup((wchar_t *)b)), b, FAMILY_WBYTES)

int main(void)
{
	FAMILY_RUN(wcslen_read);
	FAMILY_RUN(wcsnlen_read);
	FAMILY_RUN(wcscpy_write);
	FAMILY_RUN(wcscpy_read);
	FAMILY_RUN(wcsncpy_write);
	FAMILY_RUN(wcsncpy_read);
	FAMILY_RUN(wcscat_write);
	FAMILY_RUN(wcscat_read);
	FAMILY_RUN(wcscat_dest_read);
	FAMILY_RUN(wcsncat_write);
	FAMILY_RUN(wcsncat_read);
	FAMILY_RUN(wcsdup_read);
	return 0;
}
