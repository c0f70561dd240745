// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// The fortified wide-character string functions called by name
// (tests/generic/_family.h): __wcscpy_chk, __wcpcpy_chk, __wcsncpy_chk,
// __wcpncpy_chk, __wcscat_chk, __wcsncat_chk, __wmemcpy_chk, __wmemmove_chk,
// __wmempcpy_chk and __wmemset_chk, each writing a heap, a stack and a global
// buffer exactly, then one wchar_t past it (FAMILY_WN).
// glibc's object-size check gets the object's size in the fortified builds,
// where it aborts the call one byte past after the report, and no size
// (SIZE_MAX) in the others. The calls go through a pointer, so that the
// compilers do not fold them into the plain functions.
// NOT: TEST FAILED
#include "_family_str.h"

/* The destination's size for glibc's check, in the units it counts. */
#define CHK(size) (FAMILY_FORTIFIED ? (size_t)(size) : (size_t)-1)

wchar_t *__wcscpy_chk(wchar_t *d, const wchar_t *s, size_t dlen);
wchar_t *__wcpcpy_chk(wchar_t *d, const wchar_t *s, size_t dlen);
wchar_t *__wcsncpy_chk(wchar_t *d, const wchar_t *s, size_t n, size_t dlen);
wchar_t *__wcpncpy_chk(wchar_t *d, const wchar_t *s, size_t n, size_t dlen);
wchar_t *__wcscat_chk(wchar_t *d, const wchar_t *s, size_t dlen);
wchar_t *__wcsncat_chk(wchar_t *d, const wchar_t *s, size_t n, size_t dlen);
wchar_t *__wmemcpy_chk(wchar_t *d, const wchar_t *s, size_t n, size_t dlen);
wchar_t *__wmemmove_chk(wchar_t *d, const wchar_t *s, size_t n, size_t dlen);
wchar_t *__wmempcpy_chk(wchar_t *d, const wchar_t *s, size_t n, size_t dlen);
wchar_t *__wmemset_chk(wchar_t *d, wchar_t c, size_t n, size_t dlen);

FAMILY_CASE(wcscpy_chk_write, "Write", family_wstr(family_wbig, FAMILY_WN, L'a'), kasan_ptr_result = FAMILY_HIDDEN(__wcscpy_chk)((wchar_t *)b, family_wbig, CHK(FAMILY_SIZE / sizeof(wchar_t))), b, FAMILY_WBYTES)
FAMILY_CASE(wcpcpy_chk_write, "Write", family_wstr(family_wbig, FAMILY_WN, L'a'), kasan_ptr_result = FAMILY_HIDDEN(__wcpcpy_chk)((wchar_t *)b, family_wbig, CHK(FAMILY_SIZE / sizeof(wchar_t))), b, FAMILY_WBYTES)
FAMILY_CASE(wcsncpy_chk_write, "Write", , kasan_ptr_result = FAMILY_HIDDEN(__wcsncpy_chk)((wchar_t *)b, family_wbig, FAMILY_WN, CHK(FAMILY_SIZE / sizeof(wchar_t))), b, FAMILY_WBYTES)
FAMILY_CASE(wcpncpy_chk_write, "Write", , kasan_ptr_result = FAMILY_HIDDEN(__wcpncpy_chk)((wchar_t *)b, family_wbig, FAMILY_WN, CHK(FAMILY_SIZE / sizeof(wchar_t))), b, FAMILY_WBYTES)
FAMILY_CASE(wcscat_chk_write, "Write", family_wstr(b, 2, L'a'); family_wstr(family_wbig, FAMILY_WN - 1, L'b'), kasan_ptr_result = FAMILY_HIDDEN(__wcscat_chk)((wchar_t *)b, family_wbig, CHK(FAMILY_SIZE / sizeof(wchar_t))), b + sizeof(wchar_t), FAMILY_WBYTES - sizeof(wchar_t))
FAMILY_CASE(wcsncat_chk_write, "Write", family_wstr(b, 2, L'a'); family_wfill(family_wbig, FAMILY_WN - 2, L'b'), kasan_ptr_result = FAMILY_HIDDEN(__wcsncat_chk)((wchar_t *)b, family_wbig, FAMILY_WN - 2, CHK(FAMILY_SIZE / sizeof(wchar_t))), b + sizeof(wchar_t), FAMILY_WBYTES - sizeof(wchar_t))
FAMILY_CASE(wmemcpy_chk_write, "Write", , kasan_ptr_result = FAMILY_HIDDEN(__wmemcpy_chk)((wchar_t *)b, family_wbig, FAMILY_WN, CHK(FAMILY_SIZE / sizeof(wchar_t))), b, FAMILY_WBYTES)
FAMILY_CASE(wmemmove_chk_write, "Write", , kasan_ptr_result = FAMILY_HIDDEN(__wmemmove_chk)((wchar_t *)b, family_wbig, FAMILY_WN, CHK(FAMILY_SIZE / sizeof(wchar_t))), b, FAMILY_WBYTES)
FAMILY_CASE(wmempcpy_chk_write, "Write", , kasan_ptr_result = FAMILY_HIDDEN(__wmempcpy_chk)((wchar_t *)b, family_wbig, FAMILY_WN, CHK(FAMILY_SIZE / sizeof(wchar_t))), b, FAMILY_WBYTES)
FAMILY_CASE(wmemset_chk_write, "Write", , kasan_ptr_result = FAMILY_HIDDEN(__wmemset_chk)((wchar_t *)b, L'x', FAMILY_WN, CHK(FAMILY_SIZE / sizeof(wchar_t))), b, FAMILY_WBYTES)

int main(void)
{
	FAMILY_RUN(wcscpy_chk_write);
	FAMILY_RUN(wcpcpy_chk_write);
	FAMILY_RUN(wcsncpy_chk_write);
	FAMILY_RUN(wcpncpy_chk_write);
	FAMILY_RUN(wcscat_chk_write);
	FAMILY_RUN(wcsncat_chk_write);
	FAMILY_RUN(wmemcpy_chk_write);
	FAMILY_RUN(wmemmove_chk_write);
	FAMILY_RUN(wmempcpy_chk_write);
	FAMILY_RUN(wmemset_chk_write);
	return 0;
}
