// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// The multibyte-to-wide conversions with a state (tests/generic/_family.h):
// mbsrtowcs and mbsnrtowcs (destination, source, the source pointer and the
// state), mbrtowc (destination, source, state) and mbrlen (source, state;
// by name, and as <wchar.h> inlines it), each reading and (where it writes)
// writing a heap, a stack and a global buffer exactly, then one byte (or
// wchar_t) past it, in the C.UTF-8 locale.
// NOT: TEST FAILED
#include "_family_str.h"

#include <locale.h>

FAMILY_CASE(mbsrtowcs_write, "Write", family_str(family_big, FAMILY_SIZE / sizeof(wchar_t) + 1, 'a'); const char *p = family_big, kasan_int_result = mbsrtowcs((wchar_t *)b, &p, FAMILY_WN, NULL), b, FAMILY_WBYTES)
FAMILY_CASE(mbsrtowcs_read, "Read", family_str(b, n, 'a'); const char *p = b, kasan_int_result = mbsrtowcs(family_wbig, &p, 64, NULL), b, n)
FAMILY_CASE(mbsrtowcs_src_read, "Read", const char *p = family_big; family_put(b + n - 8, &p, 8), kasan_int_result = mbsrtowcs(family_wbig, (const char **)(b + n - 8), 64, NULL), b + n - 8, 8)
FAMILY_CASE(mbsrtowcs_state_read, "Read", mbstate_t st = {0}; family_put(b + n - sizeof(st), &st, sizeof(st)); const char *p = family_big, kasan_int_result = mbsrtowcs(family_wbig, &p, 64, (mbstate_t *)(b + n - sizeof(mbstate_t))), b + n - sizeof(mbstate_t), sizeof(mbstate_t))
FAMILY_CASE(mbsnrtowcs_write, "Write", family_str(family_big, FAMILY_SIZE / sizeof(wchar_t) + 1, 'a'); const char *p = family_big, kasan_int_result = mbsnrtowcs((wchar_t *)b, &p, 64, FAMILY_WN, NULL), b, FAMILY_WBYTES)
FAMILY_CASE(mbsnrtowcs_read, "Read", family_fill(b, n, 'a'); const char *p = b, kasan_int_result = mbsnrtowcs(family_wbig, &p, n, 64, NULL), b, n)
FAMILY_CASE(mbsnrtowcs_src_read, "Read", const char *p = family_big; family_put(b + n - 8, &p, 8), kasan_int_result = mbsnrtowcs(family_wbig, (const char **)(b + n - 8), 8, 64, NULL), b + n - 8, 8)
FAMILY_CASE(mbsnrtowcs_state_read, "Read", mbstate_t st = {0}; family_put(b + n - sizeof(st), &st, sizeof(st)); const char *p = family_big, kasan_int_result = mbsnrtowcs(family_wbig, &p, 8, 64, (mbstate_t *)(b + n - sizeof(mbstate_t))), b + n - sizeof(mbstate_t), sizeof(mbstate_t))
FAMILY_CASE(mbrtowc_write, "Write", , kasan_int_result = mbrtowc((wchar_t *)(b + n - sizeof(wchar_t)), "a", 1, NULL), b + n - sizeof(wchar_t), sizeof(wchar_t))
FAMILY_CASE(mbrtowc_read, "Read", family_put(b + n - 2, "\xc3\xa9", 2), kasan_int_result = mbrtowc(family_wbig, b + n - 2, 2, NULL), b + n - 2, 2)
FAMILY_CASE(mbrtowc_state_read, "Read", mbstate_t st = {0}; family_put(b + n - sizeof(st), &st, sizeof(st)), kasan_int_result = mbrtowc(family_wbig, "a", 1, (mbstate_t *)(b + n - sizeof(mbstate_t))), b + n - sizeof(mbstate_t), sizeof(mbstate_t))

FAMILY_CASE(mbrlen_plain_read, "Read", family_put(b + n - 2, "\xc3\xa9", 2), kasan_int_result = FAMILY_HIDDEN(mbrlen)(b + n - 2, 2, NULL), b + n - 2, 2)
/* <wchar.h>'s inline mbrlen makes the call (to __mbrlen, or to mbrtowc with
 * a state), and the trace names its line. */
#undef FAMILY_INLINE_CALL
#define FAMILY_INLINE_CALL 1
FAMILY_CASE(mbrlen_read, "Read", family_put(b + n - 2, "\xc3\xa9", 2), kasan_int_result = mbrlen(b + n - 2, 2, NULL), b + n - 2, 2)
FAMILY_CASE(mbrlen_state_read, "Read", mbstate_t st = {0}; family_put(b + n - sizeof(st), &st, sizeof(st)), kasan_int_result = mbrlen("a", 1, (mbstate_t *)(b + n - sizeof(mbstate_t))), b + n - sizeof(mbstate_t), sizeof(mbstate_t))

int main(void)
{
	/* Characters of more than one byte: é is two. */
	if (!setlocale(LC_ALL, "C.UTF-8"))
		kasan_test_fail("no C.UTF-8 locale");
	FAMILY_RUN(mbsrtowcs_write);
	FAMILY_RUN(mbsrtowcs_read);
	FAMILY_RUN(mbsrtowcs_src_read);
	FAMILY_RUN(mbsrtowcs_state_read);
	FAMILY_RUN(mbsnrtowcs_write);
	FAMILY_RUN(mbsnrtowcs_read);
	FAMILY_RUN(mbsnrtowcs_src_read);
	FAMILY_RUN(mbsnrtowcs_state_read);
	FAMILY_RUN(mbrtowc_write);
	FAMILY_RUN(mbrtowc_read);
	FAMILY_RUN(mbrtowc_state_read);
	FAMILY_RUN(mbrlen_plain_read);
	FAMILY_RUN(mbrlen_read);
	FAMILY_RUN(mbrlen_state_read);
	return 0;
}
