// MODE: generic
// RUN: kasan_multi_shot
// String functions that run past the end of an object: copying a string
// into a buffer too small for it (strcpy, strncpy, strcat, strncat), and
// reading an unterminated string (strlen, strcmp, strncmp, strchr, strrchr,
// strstr, memrchr, strndup). Each call reports the whole range it touches,
// from its start.
// EXPECT: BUG: KASAN: slab-out-of-bounds in kasan_strings_oob+0x
// EXPECT-RE: ^Write of size 11 at addr [0-9a-f]{16} by task \S+/\d+$
// COUNT: 12 BUG: KASAN: slab-out-of-bounds in kasan_strings_oob+0x
// COUNT: 12 BUG: KASAN:
#include "kasan_test.h"

/* Puts a terminator in the redzone after an unterminated string, without a
 * check: the string functions must then find it past the object. */
__attribute__((no_sanitize("kernel-address"))) static void poke(char *p, char c)
{
	*(volatile char *)p = c;
}

KASAN_TEST void kasan_strings_oob(void)
{
	const char *src = "0123456789"; /* 10 characters and the terminator */
	char *dst = malloc(8); int dline = __LINE__;
	char *str = malloc(8); int sline = __LINE__;

	OPTIMIZER_HIDE_VAR(dst);
	OPTIMIZER_HIDE_VAR(str);
#define OOB(expression, rw_, size_, p, obj_, aline) KASAN_EXPECT_FAIL(expression, .type = "slab-out-of-bounds", .rw = rw_, .size = size_, .addr = p, .bad = obj_ + 8, .obj = obj_, .obj_size = 8, .alloc_line = aline)
	OOB(kasan_ptr_result = strcpy(dst, src), "Write", 11, dst, dst, dline);
	OOB(kasan_ptr_result = strncpy(dst, src, 9), "Write", 9, dst, dst, dline);
	strcpy(dst, "abc");
	OOB(kasan_ptr_result = strcat(dst, "defgh"), "Write", 6, dst + 3, dst, dline);

	memcpy(str, "abcdefgh", 8); /* no terminator */
	poke(str + 8, 'i');
	poke(str + 9, 0);
	OOB(kasan_int_result = strlen(str), "Read", 10, str, str, sline);
	OOB(kasan_int_result = strcmp(str, "abcdefghij"), "Read", 10, str, str, sline);
	OOB(kasan_int_result = strncmp(str, "abcdefghX", 9), "Read", 9, str, str, sline);
	OOB(kasan_ptr_result = strchr(str, 'i'), "Read", 9, str, str, sline);
	OOB(kasan_ptr_result = strrchr(str, 'a'), "Read", 10, str, str, sline);
	OOB(kasan_ptr_result = strstr(str, "hi"), "Read", 9, str, str, sline);
	OOB(kasan_ptr_result = memrchr(str, 'a', 9), "Read", 9, str, str, sline);
	OOB(kasan_ptr_result = strndup(str, 9), "Read", 9, str, str, sline);
	free(kasan_ptr_result);
	strcpy(dst, "abc");
	OOB(kasan_ptr_result = strncat(dst, "defgh", 5), "Write", 6, dst + 3, dst, dline);
	poke(str + 8, 0);
	poke(str + 9, 0);
	free(dst);
	free(str);
}

int main(void)
{
	kasan_strings_oob();
	return 0;
}
