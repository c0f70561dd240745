// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// The wide-character copies that return their end, wcsxfrm and wcstok
// (tests/generic/_family.h): wcpcpy, wcpncpy, wmempcpy, wcsxfrm, and wcstok
// (string, delimiters, saved pointer), each reading and (where it writes)
// writing a heap, a stack and a global buffer exactly, then one wchar_t past
// it (FAMILY_WN), or a saved pointer that ends one byte past it.
// NOT: TEST FAILED
#include "_family_str.h"

FAMILY_CASE(wcpcpy_write, "Write", family_wstr(family_wbig, FAMILY_WN, L'a'), kasan_ptr_result = wcpcpy((wchar_t *)b, family_wbig), b, FAMILY_WBYTES)
FAMILY_CASE(wcpcpy_read, "Read", family_wstr(b, FAMILY_WN, L'a'), kasan_ptr_result = wcpcpy(family_wbig, (wchar_t *)b), b, FAMILY_WBYTES)
FAMILY_CASE(wcpncpy_write, "Write", , kasan_ptr_result = wcpncpy((wchar_t *)b, family_wbig, FAMILY_WN), b, FAMILY_WBYTES)
FAMILY_CASE(wcpncpy_read, "Read", family_wfill(b, FAMILY_WN, L'a'), kasan_ptr_result = wcpncpy(family_wbig, (wchar_t *)b, FAMILY_WN), b, FAMILY_WBYTES)
FAMILY_CASE(wmempcpy_write, "Write", , kasan_ptr_result = wmempcpy((wchar_t *)b, family_wbig, FAMILY_WN), b, FAMILY_WBYTES)
FAMILY_CASE(wmempcpy_read, "Read", , kasan_ptr_result = wmempcpy(family_wbig, (wchar_t *)b, FAMILY_WN), b, FAMILY_WBYTES)
FAMILY_CASE(wcsxfrm_write, "Write", family_wstr(family_wbig, FAMILY_WN, L'a'), kasan_int_result = wcsxfrm((wchar_t *)b, family_wbig, FAMILY_WN), b, FAMILY_WBYTES)
FAMILY_CASE(wcsxfrm_read, "Read", family_wstr(b, FAMILY_WN, L'a'), kasan_int_result = wcsxfrm(family_wbig, (wchar_t *)b, 64), b, FAMILY_WBYTES)
FAMILY_CASE(wcstok_read, "Read", family_wstr(b, FAMILY_WN, L'a'), kasan_ptr_result = wcstok((wchar_t *)b, L";", (wchar_t **)family_big2), b, FAMILY_WBYTES)
FAMILY_CASE(wcstok_delim_read, "Read", family_wstr(b, FAMILY_WN, L';'); family_wstr(family_wbig, 4, L'a'), kasan_ptr_result = wcstok(family_wbig, (wchar_t *)b, (wchar_t **)family_big2), b, FAMILY_WBYTES)
FAMILY_CASE(wcstok_save_write, "Write", family_wstr(family_wbig, 4, L'a'), kasan_ptr_result = wcstok(family_wbig, L";", (wchar_t **)(b + n - 8)), b + n - 8, 8)
FAMILY_CASE(wcstok_save_read, "Read", wchar_t *s = family_wbig; family_wstr(s, 4, L'a'); family_put(b + n - 8, &s, 8), kasan_ptr_result = wcstok(NULL, L";", (wchar_t **)(b + n - 8)), b + n - 8, 8)

int main(void)
{
	FAMILY_RUN(wcpcpy_write);
	FAMILY_RUN(wcpcpy_read);
	FAMILY_RUN(wcpncpy_write);
	FAMILY_RUN(wcpncpy_read);
	FAMILY_RUN(wmempcpy_write);
	FAMILY_RUN(wmempcpy_read);
	FAMILY_RUN(wcsxfrm_write);
	FAMILY_RUN(wcsxfrm_read);
	FAMILY_RUN(wcstok_read);
	FAMILY_RUN(wcstok_delim_read);
	FAMILY_RUN(wcstok_save_write);
	FAMILY_RUN(wcstok_save_read);
	return 0;
}
