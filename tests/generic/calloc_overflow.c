// MODE: generic
// RUN: ukasan.allocator_may_return_null=1
// The generic allocator's calloc and reallocarray with
// allocator_may_return_null (alloc_requests.c: without it): a size that overflows
// gives NULL with ENOMEM and no report, as glibc's; a good calloc is zeroed
// and exactly its size: one byte further is reported.
// STDOUT: calloc overflow: NULL, ENOMEM
// STDOUT: reallocarray overflow: NULL, ENOMEM
// STDOUT: calloc(10, 3): 30 zero bytes
// EXPECT: BUG: KASAN: slab-out-of-bounds in calloc_overflow+0x
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

#include <errno.h>

KASAN_TEST void calloc_overflow(void)
{
	volatile size_t half = SIZE_MAX / 2; /* so the compiler cannot elide the calls */
	errno = 0;
	void *volatile p = calloc(half, 3); /* kept: clang elides an unused one */
	printf("calloc overflow: %s, %s\n", p ? "not NULL" : "NULL", errno == ENOMEM ? "ENOMEM" : "other errno");
	errno = 0;
	p = reallocarray(NULL, half, 3);
	printf("reallocarray overflow: %s, %s\n", p ? "not NULL" : "NULL", errno == ENOMEM ? "ENOMEM" : "other errno");
	char *c = calloc(10, 3); int aline = __LINE__;
	int zero = 1;
	for (int i = 0; i < 30; i++)
		zero &= c[i] == 0;
	printf("calloc(10, 3): 30 %s bytes\n", zero ? "zero" : "NOT zero");
	fflush(stdout);
	OPTIMIZER_HIDE_VAR(c);
	KASAN_EXPECT_FAIL(kasan_int_result = ((volatile char *)c)[30], .type = "slab-out-of-bounds", .rw = "Read", .size = 1, .addr = c + 30, .obj = c, .obj_size = 30, .cache = "calloc", .alloc_line = aline);
	free(c);
}

int main(void)
{
	calloc_overflow();
	return 0;
}
