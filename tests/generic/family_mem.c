// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// The memory functions (tests/generic/_family.h): memcpy, memmove, memset,
// memcmp, memchr and memrchr, each reading or writing a heap, a stack and a
// global buffer exactly, then one byte past it.
// NOT: TEST FAILED
#include "_family.h"

FAMILY_CASE(memcpy_write, "Write", , memcpy(b, family_big, n), b, n)
FAMILY_CASE(memcpy_read, "Read", , memcpy(family_big, b, n), b, n)
FAMILY_CASE(memmove_write, "Write", , memmove(b, family_big, n), b, n)
FAMILY_CASE(memmove_read, "Read", , memmove(family_big, b, n), b, n)
FAMILY_CASE(memset_write, "Write", , memset(b, 1, n), b, n)
FAMILY_CASE(memcmp_read, "Read", memset(b, 0, FAMILY_SIZE), kasan_int_result = memcmp(b, family_big, n), b, n)
FAMILY_CASE(memchr_read, "Read", memset(b, 1, FAMILY_SIZE), kasan_ptr_result = memchr(b, 2, n), b, n)
FAMILY_CASE(memrchr_read, "Read", memset(b, 1, FAMILY_SIZE), kasan_ptr_result = memrchr(b, 2, n), b, n)

int main(void)
{
	FAMILY_RUN(memcpy_write);
	FAMILY_RUN(memcpy_read);
	FAMILY_RUN(memmove_write);
	FAMILY_RUN(memmove_read);
	FAMILY_RUN(memset_write);
	FAMILY_RUN(memcmp_read);
	FAMILY_RUN(memchr_read);
	FAMILY_RUN(memrchr_read);
	return 0;
}
