// MODE: generic
// RUN: kasan_multi_shot
// The kernel's kasan_strings: string functions on a freed 24-byte object
// that was zeroed. Its first 16 bytes hold the free record now, so, as the
// kernel's test, use the string at offset 16, which is still empty: every
// function reads its first byte and must report a slab-use-after-free of
// size 1 there. Then the same as a source and as a destination of strcpy,
// strncpy and strcat, and memchr and memcmp.
// EXPECT: BUG: KASAN: slab-use-after-free in kasan_strings+0x
// EXPECT-RE: ^Read of size 1 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: freed 24-byte region
// COUNT: 14 BUG: KASAN: slab-use-after-free in kasan_strings+0x
// COUNT: 14 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kasan_strings(void)
{
	size_t size = 24;
	char dst[32] = "abc";
	const char *xy = "xy";
	size_t four = 4;
	char *ptr = calloc(1, size); int aline = __LINE__;

	free(ptr); int fline = __LINE__;
	ptr += 16;
	OPTIMIZER_HIDE_VAR(ptr);
#define UAF(expression, rw_, size_) KASAN_EXPECT_FAIL(expression, .type = "slab-use-after-free", .rw = rw_, .size = size_, .addr = ptr, .obj = ptr - 16, .obj_size = size, .cache = "calloc", .freed = 1, .alloc_line = aline, .free_line = fline)
	UAF(kasan_ptr_result = strchr(ptr, '1'), "Read", 1);
	UAF(kasan_ptr_result = strrchr(ptr, '1'), "Read", 1);
	UAF(kasan_int_result = strcmp(ptr, "2"), "Read", 1);
	UAF(kasan_int_result = strncmp(ptr, "2", 1), "Read", 1);
	UAF(kasan_int_result = strlen(ptr), "Read", 1);
	UAF(kasan_int_result = strnlen(ptr, 1), "Read", 1);
	UAF(kasan_ptr_result = strcpy(dst, ptr), "Read", 1);
	UAF(kasan_ptr_result = strncpy(dst, ptr, 4), "Read", 1);
	UAF(kasan_ptr_result = strcat(dst, ptr), "Read", 1);
	UAF(kasan_ptr_result = memchr(ptr, '1', 8), "Read", 8);
	UAF(kasan_int_result = memcmp(ptr, dst, 8), "Read", 8);
	UAF(kasan_ptr_result = strdup(ptr), "Read", 1);
	free(kasan_ptr_result);
	/* Last: these write into the freed object. The source and size are
	 * hidden, so that the compiler does not turn them into plain stores. */
	OPTIMIZER_HIDE_VAR(xy);
	OPTIMIZER_HIDE_VAR(four);
	UAF(kasan_ptr_result = strcpy(ptr, xy), "Write", 3);
	UAF(kasan_ptr_result = strncpy(ptr, xy, four), "Write", 4);
}

int main(void)
{
	kasan_strings();
	return 0;
}
