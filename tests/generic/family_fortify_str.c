// MODE: generic
// CROSS-VARIANTS: alternate -- the subject is the runtime's C, the same under both compilers: arm64 runs one of them, x86-64 both
// VARIANTS: gcc clang gcc-fortify clang-fortify
// The fortified string functions called by name (tests/generic/_family.h):
// __strcpy_chk, __stpcpy_chk, __strncpy_chk, __stpncpy_chk, __strcat_chk,
// __strncat_chk, __mempcpy_chk and __explicit_bzero_chk, each writing a
// heap, a stack and a global buffer exactly, then one byte past it.
// glibc's object-size check gets the object's size in the fortified builds,
// where it aborts the call one byte past after the report, and no size
// (SIZE_MAX) in the others. The calls go through a pointer, so that the
// compilers do not fold them into the plain functions.
// NOT: TEST FAILED
#include "_family_str.h"

/* The destination's size for glibc's check, in the units it counts. */
#define CHK(size) (FAMILY_FORTIFIED ? (size_t)(size) : (size_t)-1)

char *__strcpy_chk(char *d, const char *s, size_t dlen);
char *__stpcpy_chk(char *d, const char *s, size_t dlen);
char *__strncpy_chk(char *d, const char *s, size_t n, size_t dlen);
char *__stpncpy_chk(char *d, const char *s, size_t n, size_t dlen);
char *__strcat_chk(char *d, const char *s, size_t dlen);
char *__strncat_chk(char *d, const char *s, size_t n, size_t dlen);
void *__mempcpy_chk(void *d, const void *s, size_t n, size_t dlen);
void __explicit_bzero_chk(void *d, size_t n, size_t dlen);

FAMILY_CASE(strcpy_chk_write, "Write", family_str(family_big, n, 'a'), kasan_ptr_result = FAMILY_HIDDEN(__strcpy_chk)(b, family_big, CHK(FAMILY_SIZE)), b, n)
FAMILY_CASE(stpcpy_chk_write, "Write", family_str(family_big, n, 'a'), kasan_ptr_result = FAMILY_HIDDEN(__stpcpy_chk)(b, family_big, CHK(FAMILY_SIZE)), b, n)
FAMILY_CASE(strncpy_chk_write, "Write", , kasan_ptr_result = FAMILY_HIDDEN(__strncpy_chk)(b, family_big, n, CHK(FAMILY_SIZE)), b, n)
FAMILY_CASE(stpncpy_chk_write, "Write", , kasan_ptr_result = FAMILY_HIDDEN(__stpncpy_chk)(b, family_big, n, CHK(FAMILY_SIZE)), b, n)
FAMILY_CASE(strcat_chk_write, "Write", family_str(b, 5, 'a'); family_str(family_big, n - 4, 'b'), kasan_ptr_result = FAMILY_HIDDEN(__strcat_chk)(b, family_big, CHK(FAMILY_SIZE)), b + 4, n - 4)
FAMILY_CASE(strncat_chk_write, "Write", family_str(b, 5, 'a'); family_fill(family_big, n - 5, 'b'), kasan_ptr_result = FAMILY_HIDDEN(__strncat_chk)(b, family_big, n - 5, CHK(FAMILY_SIZE)), b + 4, n - 4)
FAMILY_CASE(mempcpy_chk_write, "Write", , kasan_ptr_result = FAMILY_HIDDEN(__mempcpy_chk)(b, family_big, n, CHK(FAMILY_SIZE)), b, n)
FAMILY_CASE(explicit_bzero_chk_write, "Write", , FAMILY_HIDDEN(__explicit_bzero_chk)(b, n, CHK(FAMILY_SIZE)), b, n)

int main(void)
{
	FAMILY_RUN(strcpy_chk_write);
	FAMILY_RUN(stpcpy_chk_write);
	FAMILY_RUN(strncpy_chk_write);
	FAMILY_RUN(stpncpy_chk_write);
	FAMILY_RUN(strcat_chk_write);
	FAMILY_RUN(strncat_chk_write);
	FAMILY_RUN(mempcpy_chk_write);
	FAMILY_RUN(explicit_bzero_chk_write);
	return 0;
}
