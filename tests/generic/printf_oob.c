// MODE: generic
// RUN: kasan_multi_shot
// The printf family writing into a buffer one byte too small: sprintf,
// snprintf, vsprintf and vsnprintf into an 8-byte heap object, snprintf into
// a stack array and sprintf into a global one. Each reports the bytes the
// call would write (the text and its terminator, or n of them for the
// bounded ones), from the start, and leaves the buffer untouched.
// EXPECT: BUG: KASAN: slab-out-of-bounds in printf_oob+0x
// EXPECT-RE: ^Write of size 9 at addr [0-9a-f]{16} by task \S+/\d+$
// COUNT: 4 BUG: KASAN: slab-out-of-bounds in printf_oob+0x
// COUNT: 1 BUG: KASAN: stack-out-of-bounds in printf_oob+0x
// COUNT: 1 BUG: KASAN: global-out-of-bounds in printf_oob+0x
// COUNT: 6 BUG: KASAN:
// STDOUT: untouched
#include "kasan_test.h"

#include <stdarg.h>

/* Its size with the redzone each compiler gives an 8-byte global. */
#ifdef __clang__
#define GLOBAL_SIZE_WITH_REDZONE 0x20
#else
#define GLOBAL_SIZE_WITH_REDZONE 0x40
#endif
static char global_buf[8]; static int global_line = __LINE__;

KASAN_TEST void printf_oob(int unused, ...)
{
	size_t n = 8;
	char *dst = malloc(n); int aline = __LINE__;
	char stack_buf[8];
	char *sp = stack_buf, *gp = global_buf;
	va_list ap, aq;

	OPTIMIZER_HIDE_VAR(dst);
	OPTIMIZER_HIDE_VAR(n);
	OPTIMIZER_HIDE_VAR(sp);
	OPTIMIZER_HIDE_VAR(gp);
	memset(dst, 'a', n);
#define OOB(expression) KASAN_EXPECT_FAIL(expression, .type = "slab-out-of-bounds", .rw = "Write", .size = 9, .addr = dst, .bad = dst + 8, .obj = dst, .obj_size = 8, .alloc_line = aline)
	OOB(kasan_int_result = sprintf(dst, "%d", 12345678));
	OOB(kasan_int_result = snprintf(dst, n + 1, "%s", "0123456789"));
	va_start(ap, unused);
	va_copy(aq, ap);
	OOB(kasan_int_result = vsprintf(dst, "%s", ap));
	OOB(kasan_int_result = vsnprintf(dst, n + 1, "%s", aq));
	va_end(aq);
	va_end(ap);
	KASAN_EXPECT_FAIL(kasan_int_result = snprintf(sp, n + 1, "%s", "0123456789"), .type = "stack-out-of-bounds", .rw = "Write", .size = 9, .addr = sp, .stack_object = "stack_buf");
	KASAN_EXPECT_FAIL(kasan_int_result = sprintf(gp, "%d", 12345678), .type = "global-out-of-bounds", .rw = "Write", .size = 9, .addr = gp, .var = "global_buf", .var_addr = global_buf, .var_size = GLOBAL_SIZE_WITH_REDZONE, .var_line = global_line);
	int intact = 1;
	for (size_t i = 0; i < n; i++)
		intact &= dst[i] == 'a';
	printf("%s\n", intact ? "untouched" : "written");
	free(dst);
}

int main(void)
{
	printf_oob(0, "01234567");
	return 0;
}
