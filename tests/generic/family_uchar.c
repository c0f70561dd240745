// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// The conversions of multibyte characters to UTF-16, UTF-32 and UTF-8 units
// (tests/generic/_family.h): mbrtoc16, mbrtoc32 and mbrtoc8, each writing
// its unit, reading the bytes of the character and its state on a heap, a
// stack and a global buffer exactly, then one byte past it; and the later
// units of a character (the low surrogate of a pair, the second byte of é)
// that mbrtoc16 and mbrtoc8 hand out from the state, reading nothing.
// NOT: TEST FAILED
#include "_family_str.h"

#include <locale.h>
#include <uchar.h>

static char16_t c16;
static char32_t c32;
static char8_t c8;


FAMILY_CASE(mbrtoc16_write, "Write", , kasan_int_result = mbrtoc16((char16_t *)(b + n - 2), "a", 1, NULL), b + n - 2, 2)
FAMILY_CASE(mbrtoc16_pair_write, "Write", mbstate_t st = {0}; mbrtoc16(&c16, "\xf0\x9f\x98\x80", 4, &st), kasan_int_result = mbrtoc16((char16_t *)(b + n - 2), "", 1, &st), b + n - 2, 2)
FAMILY_CASE(mbrtoc16_read, "Read", family_put(b + n - 2, "\xc3\xa9", 2), kasan_int_result = mbrtoc16(&c16, b + n - 2, 2, NULL), b + n - 2, 2)
FAMILY_CASE(mbrtoc16_state_read, "Read", mbstate_t st = {0}; family_put(b + n - sizeof(st), &st, sizeof(st)), kasan_int_result = mbrtoc16(&c16, "a", 1, (mbstate_t *)(b + n - sizeof(mbstate_t))), b + n - sizeof(mbstate_t), sizeof(mbstate_t))
FAMILY_CASE(mbrtoc32_write, "Write", , kasan_int_result = mbrtoc32((char32_t *)(b + n - 4), "a", 1, NULL), b + n - 4, 4)
FAMILY_CASE(mbrtoc32_read, "Read", family_put(b + n - 4, "\xf0\x9f\x98\x80", 4), kasan_int_result = mbrtoc32(&c32, b + n - 4, 4, NULL), b + n - 4, 4)
FAMILY_CASE(mbrtoc32_state_read, "Read", mbstate_t st = {0}; family_put(b + n - sizeof(st), &st, sizeof(st)), kasan_int_result = mbrtoc32(&c32, "a", 1, (mbstate_t *)(b + n - sizeof(mbstate_t))), b + n - sizeof(mbstate_t), sizeof(mbstate_t))
FAMILY_CASE(mbrtoc8_write, "Write", , kasan_int_result = mbrtoc8((char8_t *)(b + n - 1), "a", 1, NULL), b + n - 1, 1)
FAMILY_CASE(mbrtoc8_later_write, "Write", mbstate_t st = {0}; mbrtoc8(&c8, "\xc3\xa9", 2, &st), kasan_int_result = mbrtoc8((char8_t *)(b + n - 1), "", 1, &st), b + n - 1, 1)
FAMILY_CASE(mbrtoc8_read, "Read", family_put(b + n - 2, "\xc3\xa9", 2), kasan_int_result = mbrtoc8(&c8, b + n - 2, 2, NULL), b + n - 2, 2)
FAMILY_CASE(mbrtoc8_state_read, "Read", mbstate_t st = {0}; family_put(b + n - sizeof(st), &st, sizeof(st)), kasan_int_result = mbrtoc8(&c8, "a", 1, (mbstate_t *)(b + n - sizeof(mbstate_t))), b + n - sizeof(mbstate_t), sizeof(mbstate_t))

int main(void)
{
	/* Characters of more than one byte, and outside the BMP. */
	if (!setlocale(LC_ALL, "C.UTF-8"))
		kasan_test_fail("no C.UTF-8 locale");
	FAMILY_RUN(mbrtoc16_write);
	FAMILY_RUN(mbrtoc16_pair_write);
	FAMILY_RUN(mbrtoc16_read);
	FAMILY_RUN(mbrtoc16_state_read);
	FAMILY_RUN(mbrtoc32_write);
	FAMILY_RUN(mbrtoc32_read);
	FAMILY_RUN(mbrtoc32_state_read);
	FAMILY_RUN(mbrtoc8_write);
	FAMILY_RUN(mbrtoc8_later_write);
	FAMILY_RUN(mbrtoc8_read);
	FAMILY_RUN(mbrtoc8_state_read);
	return 0;
}
