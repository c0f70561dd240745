// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// The string and memory appends and copies (tests/generic/_family.h): strcat
// (its destination is read too), strncat, mempcpy, memccpy, bcopy, bzero,
// explicit_bzero and bcmp, each reading and (where it writes) writing a heap,
// a stack and a global buffer exactly, then one byte past it. mempcpy, bcopy
// and bzero are called through a pointer: compilers turn direct calls into
// memcpy, memmove and memset, or check them themselves (family_mem.c).
// NOT: TEST FAILED
#include "_family_str.h"

FAMILY_CASE(strcat_write, "Write", family_str(b, 5, 'a'); family_str(family_big, n - 4, 'b'), kasan_ptr_result = strcat(b, family_big), b + 4, n - 4)
FAMILY_CASE(strcat_read, "Read", family_str(b, n, 'a'), kasan_ptr_result = strcat(family_big, b), b, n)
FAMILY_CASE(strcat_dest_read, "Read", family_str(b, n, 'a'), kasan_ptr_result = strcat(b, family_big), b, n)
FAMILY_CASE(strncat_write, "Write", family_str(b, 5, 'a'); family_fill(family_big, n - 5, 'b'), kasan_ptr_result = strncat(b, family_big, n - 5), b + 4, n - 4)
FAMILY_CASE(strncat_read, "Read", family_fill(b, n, 'a'), kasan_ptr_result = strncat(family_big, b, n), b, n)
FAMILY_CASE(mempcpy_write, "Write", , kasan_ptr_result = FAMILY_HIDDEN(mempcpy)(b, family_big, n), b, n)
FAMILY_CASE(mempcpy_read, "Read", , kasan_ptr_result = FAMILY_HIDDEN(mempcpy)(family_big, b, n), b, n)
FAMILY_CASE(memccpy_write, "Write", , kasan_ptr_result = memccpy(b, family_big, 'z', n), b, n)
FAMILY_CASE(memccpy_read, "Read", memset(b, 0, FAMILY_SIZE), kasan_ptr_result = memccpy(family_big, b, 'z', n), b, n)
FAMILY_CASE(bcopy_write, "Write", , FAMILY_HIDDEN(bcopy)(family_big, b, n), b, n)
FAMILY_CASE(bcopy_read, "Read", , FAMILY_HIDDEN(bcopy)(b, family_big, n), b, n)
FAMILY_CASE(bzero_write, "Write", , FAMILY_HIDDEN(bzero)(b, n), b, n)
FAMILY_CASE(explicit_bzero_write, "Write", , explicit_bzero(b, n), b, n)
FAMILY_CASE(bcmp_read, "Read", memset(b, 0, FAMILY_SIZE), kasan_int_result = bcmp(b, family_big, n), b, n)

int main(void)
{
	FAMILY_RUN(strcat_write);
	FAMILY_RUN(strcat_read);
	FAMILY_RUN(strcat_dest_read);
	FAMILY_RUN(strncat_write);
	FAMILY_RUN(strncat_read);
	FAMILY_RUN(mempcpy_write);
	FAMILY_RUN(mempcpy_read);
	FAMILY_RUN(memccpy_write);
	FAMILY_RUN(memccpy_read);
	FAMILY_RUN(bcopy_write);
	FAMILY_RUN(bcopy_read);
	FAMILY_RUN(bzero_write);
	FAMILY_RUN(explicit_bzero_write);
	FAMILY_RUN(bcmp_read);
	return 0;
}
