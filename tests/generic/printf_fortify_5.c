// MODE: generic
// ASan's printf-fortify-5 (compiler-rt/test/asan/TestCases/Linux): a
// library built with _FORTIFY_SOURCE=2, not instrumented, passes a new
// 1-byte object as fprintf's format, through __fprintf_chk. The object
// is not written: only ASan's fill (0xbe, no terminator) makes the format
// run past its end, and the interceptor's check of the format reports it.
// The library's call is made here directly, to the same interceptor.
// EXPECT: BUG: KASAN: slab-out-of-bounds in foo+0x
// EXPECT-RE: ^Read of size 2 at addr [0-9a-f]{16} by task
// EXPECT: __fprintf_chk+0x
// EXPECT-RE: foo\+0x[0-9a-f]+/0x[0-9a-f]+ tests/generic/printf_fortify_5.c:\d+
// EXPECT: The buggy address is located 0 bytes inside of
// EXPECT: allocated 1-byte region
// COUNT: 1 BUG: KASAN:
#include <stdio.h>
#include <stdlib.h>

int __fprintf_chk(FILE *f, int flag, const char *format, ...);

__attribute__((noinline)) int foo(void)
{
	char *read_buffer = malloc(1);
	__asm__ volatile("" : "+r"(read_buffer) : : "memory");
	__fprintf_chk(stderr, 1, read_buffer, 4096);
	return read_buffer[0];
}

int main(void)
{
	return foo() == 0 ? 0 : 0;
}
