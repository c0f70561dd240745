// MODE: generic
// CFLAGS: -O2 -D_FORTIFY_SOURCE=2
// A fortified snprintf told it has more room than the object the compiler
// knows: the interceptor reports the overflow, then glibc's own fortify
// check still aborts the program, as it would without ukasan.
// EXPECT: BUG: KASAN: slab-out-of-bounds in fortify_overflow_abort+0x
// EXPECT-RE: ^Write of size 9 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: *** buffer overflow detected ***
// COUNT: 1 BUG: KASAN:
// STATUS: signal SIGABRT
#include "kasan_test.h"

KASAN_TEST void fortify_overflow_abort(void)
{
	size_t n = 9;
	char *p = malloc(8); int aline = __LINE__;

	OPTIMIZER_HIDE_VAR(n);
	KASAN_EXPECT_FAIL(kasan_int_result = snprintf(p, n, "%s", "0123456789"), .type = "slab-out-of-bounds", .rw = "Write", .size = 9, .addr = p, .bad = p + 8, .obj = p, .obj_size = 8, .alloc_line = aline, .inlined = 1);
	free(p);
}

int main(void)
{
	fortify_overflow_abort();
	return 0;
}
