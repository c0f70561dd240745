// MODE: sw_tags
// VARIANTS: gcc clang
// RUN: kasan.stacktrace=off
// kasan.stacktrace=off: no allocation or free stacks are saved (the NOT
// lines are those of the malloc and the free: keep them so); the report
// still has the access's own call trace, and no frame of the allocation
// or the free. (The kernel's tag modes then have no stack ring entry
// either and call it invalid-access; ukasan's ring keeps the entry without
// its stack, says "(stack is not available)" as generic mode does, and
// can tell the bug type: the type is not asserted.)
// EXPECT: BUG: KASAN:
// EXPECT: in kasan_stacktrace_off+0x
// EXPECT-RE: ^ \[<[0-9a-f]+>\] kasan_stacktrace_off\+0x[0-9a-f]+/0x[0-9a-f]+ tests/tags/stacktrace_off.c:\d+$
// NOT: tests/tags/stacktrace_off.c:21
// NOT: tests/tags/stacktrace_off.c:24
// COUNT: 1 BUG: KASAN:
#include "tags_test.h"

TAGS_TEST void kasan_stacktrace_off(void)
{
	char *a = malloc(40);

	OPTIMIZER_HIDE_VAR(a);
	free(a);
	TAGS_EXPECT_FAIL(tags_int_result = ((volatile char *)a)[0], .rw = "Read", .size = 1, .addr = a);
}

int main(int argc, char **argv)
{
	tags_select(argc, argv);
	kasan_stacktrace_off();
	return 0;
}
