// MODE: sw_tags
// VARIANTS: gcc clang
// RUN: kasan.stacktrace=off
// HWASAN: caught -- a use after free
// kasan.stacktrace=off: no allocation or free stacks are saved (the stack
// ring records none); the report still has the access's own call trace,
// but neither an allocation nor a free stack, as the kernel's (its tag
// modes take both from the ring). Without a ring entry the bug type cannot
// be told: invalid-access, as the kernel says then.
// EXPECT: BUG: KASAN: invalid-access in kasan_stacktrace_off+0x
// EXPECT-RE: ^ kasan_stacktrace_off\+0x[0-9a-f]+/0x[0-9a-f]+ tests/tags/stacktrace_off.c:\d+$
// NOT: Allocated by task
// NOT: Freed by task
// NOT: tests/tags/stacktrace_off.c:21
// NOT: tests/tags/stacktrace_off.c:24
// COUNT: 1 BUG: KASAN:
#include "tags_test.h"

TAGS_TEST void kasan_stacktrace_off(void)
{
	char *a = malloc(40);

	OPTIMIZER_HIDE_VAR(a);
	free(a);
	TAGS_EXPECT_FAIL(tags_int_result = ((volatile char *)a)[0], .type = "invalid-access", .rw = "Read", .size = 1, .addr = a);
}

int main(int argc, char **argv)
{
	tags_select(argc, argv);
	kasan_stacktrace_off();
	return 0;
}
