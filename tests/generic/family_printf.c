// MODE: generic
// VARIANTS: gcc clang gcc-fortify clang-fortify
// CROSS-VARIANTS: gcc clang gcc-fortify clang-fortify -- va_list is per architecture, and the __v*_chk interceptors pass it on
// The printf family writing into a buffer (tests/generic/_family.h):
// sprintf, snprintf, vsprintf, vsnprintf, swprintf and vswprintf, each
// writing a text and its terminator that end exactly at the end of a heap,
// a stack and a global buffer, then one byte (one wide character) past it.
// The report is the write of the whole text, before it is made.
// NOT: TEST FAILED
#include "_family_format.h"

FAMILY_CASE(sprintf_write, "Write", , kasan_int_result = sprintf(b, "%*d", (int)n - 1, 7), b, n)
FAMILY_CASE(snprintf_write, "Write", , kasan_int_result = snprintf(b, n, "%*d", (int)n, 7), b, n)
FAMILY_CASE(vsprintf_write, "Write", FAMILY_VA_LIST(ap, n - 1, 7), kasan_int_result = vsprintf(b, "%*d", ap), b, n)
FAMILY_CASE(vsnprintf_write, "Write", FAMILY_VA_LIST(ap, n, 7), kasan_int_result = vsnprintf(b, n, "%*d", ap), b, n)
FAMILY_CASE(swprintf_write, "Write", , kasan_int_result = swprintf((wchar_t *)b, FAMILY_WN(n), L"%*d", (int)FAMILY_WN(n) - 1, 7), b, FAMILY_WN(n) * sizeof(wchar_t))
FAMILY_CASE(vswprintf_write, "Write", FAMILY_VA_LIST(ap, FAMILY_WN(n) - 1, 7), kasan_int_result = vswprintf((wchar_t *)b, FAMILY_WN(n), L"%*d", ap), b, FAMILY_WN(n) * sizeof(wchar_t))

int main(void)
{
	FAMILY_RUN(sprintf_write);
	FAMILY_RUN(snprintf_write);
	FAMILY_RUN(vsprintf_write);
	FAMILY_RUN(vsnprintf_write);
	FAMILY_RUN(swprintf_write);
	FAMILY_RUN(vswprintf_write);
	return 0;
}
