// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// The string copies (tests/generic/_family.h): strlen, strnlen, strcpy,
// stpcpy, strncpy, stpncpy, strdup and strndup, each reading and (where it
// writes) writing a heap, a stack and a global buffer exactly, then one byte
// past it. family_str2.c to family_str4.c have the rest of <string.h>.
// NOT: TEST FAILED
#include "_family_str.h"

FAMILY_CASE(strlen_read, "Read", family_str(b, n, 'a'), kasan_int_result = strlen(b), b, n)
FAMILY_CASE(strnlen_read, "Read", family_fill(b, n, 'a'), kasan_int_result = strnlen(b, n), b, n)
FAMILY_CASE(strcpy_write, "Write", family_str(family_big, n, 'a'), kasan_ptr_result = strcpy(b, family_big), b, n)
FAMILY_CASE(strcpy_read, "Read", family_str(b, n, 'a'), kasan_ptr_result = strcpy(family_big, b), b, n)
FAMILY_CASE(stpcpy_write, "Write", family_str(family_big, n, 'a'), kasan_ptr_result = stpcpy(b, family_big), b, n)
FAMILY_CASE(stpcpy_read, "Read", family_str(b, n, 'a'), kasan_ptr_result = stpcpy(family_big, b), b, n)
FAMILY_CASE(strncpy_write, "Write", , kasan_ptr_result = strncpy(b, family_big, n), b, n)
FAMILY_CASE(strncpy_read, "Read", family_fill(b, n, 'a'), kasan_ptr_result = strncpy(family_big, b, n), b, n)
FAMILY_CASE(stpncpy_write, "Write", , kasan_ptr_result = stpncpy(b, family_big, n), b, n)
FAMILY_CASE(stpncpy_read, "Read", family_fill(b, n, 'a'), kasan_ptr_result = stpncpy(family_big, b, n), b, n)
FAMILY_CASE(strdup_read, "Read", family_str(b, n, 'a'), free(kasan_ptr_result = strdup(b)), b, n)
FAMILY_CASE(strndup_read, "Read", family_fill(b, n, 'a'), free(kasan_ptr_result = strndup(b, n)), b, n)

int main(void)
{
	FAMILY_RUN(strlen_read);
	FAMILY_RUN(strnlen_read);
	FAMILY_RUN(strcpy_write);
	FAMILY_RUN(strcpy_read);
	FAMILY_RUN(stpcpy_write);
	FAMILY_RUN(stpcpy_read);
	FAMILY_RUN(strncpy_write);
	FAMILY_RUN(strncpy_read);
	FAMILY_RUN(stpncpy_write);
	FAMILY_RUN(stpncpy_read);
	FAMILY_RUN(strdup_read);
	FAMILY_RUN(strndup_read);
	return 0;
}
