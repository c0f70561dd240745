// MODE: generic
// RUN: kasan.stacktrace=off
// With kasan.stacktrace=off no allocation or free stacks are recorded: the
// report still gives the tasks, but "(stack is not available)" for their
// stacks. The call trace of the access itself is still printed.
// EXPECT: BUG: KASAN: slab-use-after-free in kasan_stacktrace_off+0x
// EXPECT-RE: ^ \[<[0-9a-f]+>\] kasan_stacktrace_off\+0x[0-9a-f]+/0x[0-9a-f]+ tests/generic/kasan_stacktrace_off.c:\d+$
// (The kernel prints the line with no leading space; ukasan indents it as
// a stack frame. Either is accepted.)
// EXPECT-RE: ^Allocated by task \d+:\n ?\(stack is not available\)$
// EXPECT-RE: ^Freed by task \d+:\n ?\(stack is not available\)$
// EXPECT: freed 40-byte region
// COUNT: 2 (stack is not available)
// COUNT: 1 BUG: KASAN:
#include "kasan_test.h"

KASAN_TEST void kasan_stacktrace_off(void)
{
	char *a = malloc(40);

	free(a);
	KASAN_EXPECT_FAIL(kasan_int_result = ((volatile char *)a)[0], .type = "slab-use-after-free", .rw = "Read", .size = 1, .addr = a, .obj = a, .obj_size = 40, .freed = 1);
}

int main(void)
{
	kasan_stacktrace_off();
	return 0;
}
