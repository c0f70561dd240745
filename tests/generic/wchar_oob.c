// MODE: generic
// RUN: kasan_multi_shot
// The wide-character string and memory functions, as kasan_strings_oob for
// the narrow ones: copies one wchar_t too long for an 8-wchar_t object
// (wcscpy, wcsncpy, wcscat, wcsncat, wmemcpy, wmemmove, wmemset), and reads
// of an unterminated one (wcslen, wcsnlen, wcscmp, wcsncmp, wcschr, wcsrchr,
// wmemchr, wmemcmp, wcsdup). Each reports the whole range, from its start.
// EXPECT: BUG: KASAN: slab-out-of-bounds in wchar_oob+0x
// EXPECT-RE: ^Write of size 36 at addr [0-9a-f]{16} by task \S+/\d+$
// COUNT: 16 BUG: KASAN: slab-out-of-bounds in wchar_oob+0x
// COUNT: 16 BUG: KASAN:
#include "kasan_test.h"

#include <wchar.h>

__attribute__((no_sanitize("kernel-address"))) static void poke(wchar_t *p, wchar_t c)
{
	*(volatile wchar_t *)p = c;
}

KASAN_TEST void wchar_oob(void)
{
	const wchar_t *src = L"012345678"; /* 9 and the terminator */
	size_t n = 8, w = sizeof(wchar_t);
	wchar_t *dst = malloc(n * w); int dline = __LINE__;
	wchar_t *str = malloc(n * w); int sline = __LINE__;

	OPTIMIZER_HIDE_VAR(dst);
	OPTIMIZER_HIDE_VAR(str);
	OPTIMIZER_HIDE_VAR(n);
#define OOB(expression, rw_, size_, p, obj_, aline) KASAN_EXPECT_FAIL(expression, .type = "slab-out-of-bounds", .rw = rw_, .size = size_, .addr = p, .bad = (char *)obj_ + 32, .obj = obj_, .obj_size = 32, .alloc_line = aline)
	OOB(kasan_ptr_result = wcscpy(dst, L"01234567"), "Write", 36, dst, dst, dline);
	OOB(kasan_ptr_result = wcsncpy(dst, src, n + 1), "Write", 36, dst, dst, dline);
	wcscpy(dst, L"abc");
	OOB(kasan_ptr_result = wcscat(dst, L"defgh"), "Write", 24, dst + 3, dst, dline);
	wcscpy(dst, L"abc");
	OOB(kasan_ptr_result = wcsncat(dst, L"defgh", 5), "Write", 24, dst + 3, dst, dline);
	OOB(kasan_ptr_result = wmemcpy(dst, src, n + 1), "Write", 36, dst, dst, dline);
	OOB(kasan_ptr_result = wmemmove(dst, src, n + 1), "Write", 36, dst, dst, dline);
	OOB(kasan_ptr_result = wmemset(dst, L'x', n + 1), "Write", 36, dst, dst, dline);

	wmemcpy(str, L"abcdefgh", n); /* no terminator */
	poke(str + 8, L'i');
	poke(str + 9, 0);
	OOB(kasan_int_result = wcslen(str), "Read", 40, str, str, sline);
	OOB(kasan_int_result = wcsnlen(str, n + 1), "Read", 36, str, str, sline);
	OOB(kasan_int_result = wcscmp(str, L"abcdefghij"), "Read", 40, str, str, sline);
	OOB(kasan_int_result = wcsncmp(str, L"abcdefghX", n + 1), "Read", 36, str, str, sline);
	OOB(kasan_ptr_result = wcschr(str, L'i'), "Read", 36, str, str, sline);
	OOB(kasan_ptr_result = wcsrchr(str, L'a'), "Read", 40, str, str, sline);
	OOB(kasan_ptr_result = wmemchr(str, L'i', n + 1), "Read", 36, str, str, sline);
	OOB(kasan_int_result = wmemcmp(str, L"abcdefghi", n + 1), "Read", 36, str, str, sline);
	OOB(kasan_ptr_result = wcsdup(str), "Read", 40, str, str, sline);
	free(kasan_ptr_result);
	poke(str + 8, 0);
	poke(str + 9, 0);
	free(dst);
	free(str);
}

int main(void)
{
	wchar_oob();
	return 0;
}
