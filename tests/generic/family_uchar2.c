// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// The conversions of UTF-16, UTF-32 and UTF-8 units to multibyte characters
// (tests/generic/_family.h): c16rtomb, c32rtomb and c8rtomb, each writing
// the bytes of its character and reading its state on a heap, a stack and
// a global buffer exactly, then one byte past it; and the character that
// c16rtomb makes of a surrogate pair, and c8rtomb of a lead byte and a
// continuation, whose first unit went into the state.
// NOT: TEST FAILED
#include "_family_str.h"

#include <locale.h>
#include <uchar.h>

FAMILY_CASE(c16rtomb_write, "Write", , kasan_int_result = c16rtomb(b + n - 2, 0xe9, NULL), b + n - 2, 2)
FAMILY_CASE(c16rtomb_pair_write, "Write", mbstate_t st = {0}; c16rtomb(family_big, 0xd83d, &st), kasan_int_result = c16rtomb(b + n - 4, 0xde00, &st), b + n - 4, 4)
FAMILY_CASE(c16rtomb_state_read, "Read", mbstate_t st = {0}; family_put(b + n - sizeof(st), &st, sizeof(st)), kasan_int_result = c16rtomb(family_big, u'a', (mbstate_t *)(b + n - sizeof(mbstate_t))), b + n - sizeof(mbstate_t), sizeof(mbstate_t))
FAMILY_CASE(c32rtomb_write, "Write", , kasan_int_result = c32rtomb(b + n - 4, 0x1f600, NULL), b + n - 4, 4)
FAMILY_CASE(c32rtomb_state_read, "Read", mbstate_t st = {0}; family_put(b + n - sizeof(st), &st, sizeof(st)), kasan_int_result = c32rtomb(family_big, U'a', (mbstate_t *)(b + n - sizeof(mbstate_t))), b + n - sizeof(mbstate_t), sizeof(mbstate_t))
FAMILY_CASE(c8rtomb_write, "Write", , kasan_int_result = c8rtomb(b + n - 1, 'a', NULL), b + n - 1, 1)
FAMILY_CASE(c8rtomb_later_write, "Write", mbstate_t st = {0}; c8rtomb(family_big, 0xc3, &st), kasan_int_result = c8rtomb(b + n - 2, 0xa9, &st), b + n - 2, 2)
FAMILY_CASE(c8rtomb_state_read, "Read", mbstate_t st = {0}; family_put(b + n - sizeof(st), &st, sizeof(st)), kasan_int_result = c8rtomb(family_big, 'a', (mbstate_t *)(b + n - sizeof(mbstate_t))), b + n - sizeof(mbstate_t), sizeof(mbstate_t))

int main(void)
{
	/* Characters of more than one byte, and outside the BMP. */
	if (!setlocale(LC_ALL, "C.UTF-8"))
		kasan_test_fail("no C.UTF-8 locale");
	FAMILY_RUN(c16rtomb_write);
	FAMILY_RUN(c16rtomb_pair_write);
	FAMILY_RUN(c16rtomb_state_read);
	FAMILY_RUN(c32rtomb_write);
	FAMILY_RUN(c32rtomb_state_read);
	FAMILY_RUN(c8rtomb_write);
	FAMILY_RUN(c8rtomb_later_write);
	FAMILY_RUN(c8rtomb_state_read);
	return 0;
}
