// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// The wide-to-multibyte conversions with a state (tests/generic/_family.h):
// wcsrtombs and wcsnrtombs (destination, source, the source pointer and the
// state) and wcrtomb (destination, state), each reading and (where it
// writes) writing a heap, a stack and a global buffer exactly, then one byte
// (or wchar_t) past it, in the C.UTF-8 locale.
// NOT: TEST FAILED
#include "_family_str.h"

#include <locale.h>

FAMILY_CASE(wcsrtombs_write, "Write", family_wstr(family_wbig, n, L'a'); const wchar_t *p = family_wbig, kasan_int_result = wcsrtombs(b, &p, n, NULL), b, n)
FAMILY_CASE(wcsrtombs_read, "Read", family_wstr(b, FAMILY_WN, L'a'); const wchar_t *p = (wchar_t *)b, kasan_int_result = wcsrtombs(family_big, &p, 64, NULL), b, FAMILY_WBYTES)
FAMILY_CASE(wcsrtombs_src_read, "Read", const wchar_t *p = family_wbig; family_put(b + n - 8, &p, 8), kasan_int_result = wcsrtombs(family_big, (const wchar_t **)(b + n - 8), 64, NULL), b + n - 8, 8)
FAMILY_CASE(wcsrtombs_state_read, "Read", mbstate_t st = {0}; family_put(b + n - sizeof(st), &st, sizeof(st)); const wchar_t *p = family_wbig, kasan_int_result = wcsrtombs(family_big, &p, 64, (mbstate_t *)(b + n - sizeof(mbstate_t))), b + n - sizeof(mbstate_t), sizeof(mbstate_t))
FAMILY_CASE(wcsnrtombs_write, "Write", family_wfill(family_wbig, n, L'a'); const wchar_t *p = family_wbig, kasan_int_result = wcsnrtombs(b, &p, n, n, NULL), b, n)
FAMILY_CASE(wcsnrtombs_read, "Read", family_wfill(b, FAMILY_WN, L'a'); const wchar_t *p = (wchar_t *)b, kasan_int_result = wcsnrtombs(family_big, &p, FAMILY_WN, 64, NULL), b, FAMILY_WBYTES)
FAMILY_CASE(wcsnrtombs_src_read, "Read", const wchar_t *p = family_wbig; family_put(b + n - 8, &p, 8), kasan_int_result = wcsnrtombs(family_big, (const wchar_t **)(b + n - 8), 8, 64, NULL), b + n - 8, 8)
FAMILY_CASE(wcsnrtombs_state_read, "Read", mbstate_t st = {0}; family_put(b + n - sizeof(st), &st, sizeof(st)); const wchar_t *p = family_wbig, kasan_int_result = wcsnrtombs(family_big, &p, 8, 64, (mbstate_t *)(b + n - sizeof(mbstate_t))), b + n - sizeof(mbstate_t), sizeof(mbstate_t))
FAMILY_CASE(wcrtomb_write, "Write", , kasan_int_result = wcrtomb(b + n - 2, 0xe9, NULL), b + n - 2, 2)
FAMILY_CASE(wcrtomb_state_read, "Read", mbstate_t st = {0}; family_put(b + n - sizeof(st), &st, sizeof(st)), kasan_int_result = wcrtomb(family_big, L'a', (mbstate_t *)(b + n - sizeof(mbstate_t))), b + n - sizeof(mbstate_t), sizeof(mbstate_t))

int main(void)
{
	/* Characters of more than one byte: é is two. */
	if (!setlocale(LC_ALL, "C.UTF-8"))
		kasan_test_fail("no C.UTF-8 locale");
	FAMILY_RUN(wcsrtombs_write);
	FAMILY_RUN(wcsrtombs_read);
	FAMILY_RUN(wcsrtombs_src_read);
	FAMILY_RUN(wcsrtombs_state_read);
	FAMILY_RUN(wcsnrtombs_write);
	FAMILY_RUN(wcsnrtombs_read);
	FAMILY_RUN(wcsnrtombs_src_read);
	FAMILY_RUN(wcsnrtombs_state_read);
	FAMILY_RUN(wcrtomb_write);
	FAMILY_RUN(wcrtomb_state_read);
	return 0;
}
