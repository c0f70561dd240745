// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// The multibyte conversions without a state (tests/generic/_family.h):
// mbstowcs and wcstombs (source and destination; a destination filled up to
// an invalid character, or up to a character that does not fit), mbtowc,
// wctomb and mblen, each reading and (where it writes) writing a heap, a
// stack and a global buffer exactly, then one byte (or wchar_t) past it, in
// the C.UTF-8 locale. The calls that must pass more room than the buffer has
// go through a pointer, past the fortified forms' own check.
// NOT: TEST FAILED
#include "_family_str.h"

#include <locale.h>

FAMILY_CASE(mbstowcs_write, "Write", family_str(family_big, FAMILY_SIZE / sizeof(wchar_t) + 1, 'a'), kasan_int_result = mbstowcs((wchar_t *)b, family_big, FAMILY_WN), b, FAMILY_WBYTES)
FAMILY_CASE(mbstowcs_invalid_write, "Write", family_fill(family_big, FAMILY_WN, 'a'); family_put(family_big + FAMILY_WN, "\xff", 1), kasan_int_result = FAMILY_HIDDEN(mbstowcs)((wchar_t *)b, family_big, family_room), b, FAMILY_WBYTES)
FAMILY_CASE(mbstowcs_read, "Read", family_str(b, n, 'a'), kasan_int_result = mbstowcs(family_wbig, b, 64), b, n)
FAMILY_CASE(wcstombs_write, "Write", family_wstr(family_wbig, n, L'a'), kasan_int_result = wcstombs(b, family_wbig, n), b, n)
FAMILY_CASE(wcstombs_cut_write, "Write", family_wfill(family_wbig, n - 2, L'a'); family_wbig[n - 2] = 0xe9; family_wbig[n - 1] = L'b', kasan_int_result = wcstombs(b, family_wbig, n), b, n)
FAMILY_CASE(wcstombs_invalid_write, "Write", family_wfill(family_wbig, n, L'a'); family_wbig[n] = 0xd800, kasan_int_result = FAMILY_HIDDEN(wcstombs)(b, family_wbig, family_room), b, n)
FAMILY_CASE(wcstombs_read, "Read", family_wstr(b, FAMILY_WN, L'a'), kasan_int_result = wcstombs(family_big, (wchar_t *)b, 64), b, FAMILY_WBYTES)
FAMILY_CASE(mbtowc_write, "Write", , kasan_int_result = mbtowc((wchar_t *)(b + n - sizeof(wchar_t)), "a", 1), b + n - sizeof(wchar_t), sizeof(wchar_t))
FAMILY_CASE(mbtowc_read, "Read", family_put(b + n - 2, "\xc3\xa9", 2), kasan_int_result = mbtowc(family_wbig, b + n - 2, 2), b + n - 2, 2)
FAMILY_CASE(wctomb_write, "Write", , kasan_int_result = wctomb(b + n - 2, 0xe9), b + n - 2, 2)
FAMILY_CASE(mblen_read, "Read", family_put(b + n - 2, "\xc3\xa9", 2), kasan_int_result = mblen(b + n - 2, 2), b + n - 2, 2)

int main(void)
{
	/* Characters of more than one byte: é is two. */
	if (!setlocale(LC_ALL, "C.UTF-8"))
		kasan_test_fail("no C.UTF-8 locale");
	FAMILY_RUN(mbstowcs_write);
	FAMILY_RUN(mbstowcs_invalid_write);
	FAMILY_RUN(mbstowcs_read);
	FAMILY_RUN(wcstombs_write);
	FAMILY_RUN(wcstombs_cut_write);
	FAMILY_RUN(wcstombs_invalid_write);
	FAMILY_RUN(wcstombs_read);
	FAMILY_RUN(mbtowc_write);
	FAMILY_RUN(mbtowc_read);
	FAMILY_RUN(wctomb_write);
	FAMILY_RUN(mblen_read);
	return 0;
}
