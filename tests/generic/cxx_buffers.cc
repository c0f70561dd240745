// MODE: generic
// VARIANTS: gcc clang gcc-fortify clang-fortify
// RUN: kasan_multi_shot
// C++ buffer bugs that bug corpora have: placement new of an object larger
// than the stack buffer it is built in, then a member past the buffer
// written; memcpy (std::memcpy, in a C++ translation unit) one byte past a
// new[] array, writing and reading; and the same copies exactly in bounds,
// not reported.
// EXPECT: BUG: KASAN: stack-out-of-bounds in cxx_buffers+0x
// EXPECT-RE: ^Write of size 4 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: BUG: KASAN: slab-out-of-bounds in cxx_buffers+0x
// EXPECT-RE: ^Write of size 11 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: which belongs to the cache new[] of size 10
// EXPECT: BUG: KASAN: slab-out-of-bounds in cxx_buffers+0x
// EXPECT-RE: ^Read of size 11 at addr [0-9a-f]{16} by task \S+/\d+$
// EXPECT: which belongs to the cache new[] of size 10
// GCC may check the range of memcpy itself too, before the call: no count.
// COUNT-CLANG: 3 BUG: KASAN:
// STDOUT: in bounds: 0123456789
#include "kasan_test.h"

#include <cstdio>
#include <cstring>
#include <new>

struct Big {
	int field[8];
};

extern "C" KASAN_TEST void cxx_buffers(void)
{
	char buf[16];
	Big *b = new (buf) Big;
	OPTIMIZER_HIDE_VAR(b);
	KASAN_EXPECT_FAIL(b->field[4] = 1, .type = "stack-out-of-bounds", .rw = "Write", .size = 4, .addr = &b->field[4], .stack_object = "buf");

	size_t n = 10;
	OPTIMIZER_HIDE_VAR(n);
	char *a = new char[10]; int aline = __LINE__;
	/* Unknown to _FORTIFY_SOURCE, whose own check would abort. */
	OPTIMIZER_HIDE_VAR(a);
	static char src[32] = "0123456789abcdef", dst[32];
	std::memcpy(a, src, n);
	std::memcpy(dst, a, n);
	std::printf("in bounds: %.10s\n", dst);
	KASAN_EXPECT_FAIL(std::memcpy(a, src, n + 1), .type = "slab-out-of-bounds", .rw = "Write", .size = 11, .addr = a, .obj = a, .obj_size = 10, .cache = "new[]", .alloc_line = aline, .bad = a + 10, .inlined = 1);
	KASAN_EXPECT_FAIL(std::memcpy(dst, a, n + 1), .type = "slab-out-of-bounds", .rw = "Read", .size = 11, .addr = a, .obj = a, .obj_size = 10, .cache = "new[]", .alloc_line = aline, .bad = a + 10, .inlined = 1);
	delete[] a;
}

int main()
{
	cxx_buffers();
	return 0;
}
